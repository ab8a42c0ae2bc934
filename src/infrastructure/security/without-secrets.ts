/** Text with anything shaped like a credential masked, for logs and spans; shapeless secrets are masked by value (`known`). */
export function withoutSecrets(text: string, known: readonly string[] = []): string {
  const shaped = text
    .replace(/svc_(live|test)_[A-Za-z0-9_-]{32}/g, 'svc_$1_[redacted]')
    .replace(/whsec_[A-Za-z0-9_-]{32}/g, 'whsec_[redacted]')
    .replace(/op_[A-Za-z0-9_-]{43}/g, 'op_[redacted]');
  return known.reduce((masked, secret) => (secret === '' ? masked : masked.split(secret).join('[redacted]')), shaped);
}
