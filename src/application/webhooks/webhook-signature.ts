import { createHmac } from 'node:crypto';

/**
 * `t=<unix seconds>,v1=<hex>[,v1=<hex>]`: HMAC-SHA256 over "<t>.<raw body>" with each
 * signing secret, newest first (two during a secret rotation).
 */
export function signatureHeader(secrets: readonly string[], unixSeconds: number, body: string): string {
  const signatures = secrets.map(
    (secret) => `v1=${createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex')}`,
  );
  return [`t=${unixSeconds}`, ...signatures].join(',');
}
