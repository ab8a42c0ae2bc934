/**
 * Text with anything shaped like a credential masked: API keys (`svc_test_`/`svc_live_`), webhook secrets
 * (`whsec_`) and operator tokens (`op_`). What logs and span statuses carry goes through it, so a secret that
 * ends up in an error message (an upstream echoing a header, a stack) never leaves the process. Secrets with no
 * shape of their own (the break-glass token, the key-hashing secret) are masked by value, as `known`.
 */
export function withoutSecrets(text: string, known: readonly string[] = []): string {
  const shaped = text
    .replace(/svc_(live|test)_[A-Za-z0-9_-]{32}/g, 'svc_$1_[redacted]')
    .replace(/whsec_[A-Za-z0-9_-]{32}/g, 'whsec_[redacted]')
    .replace(/op_[A-Za-z0-9_-]{43}/g, 'op_[redacted]');
  return known.reduce((masked, secret) => (secret === '' ? masked : masked.split(secret).join('[redacted]')), shaped);
}
