import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far `t` may be from the receiver's clock, as docs/webhooks.md asks: older deliveries are replays. */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

export type WebhookVerdict = { ok: true; timestamp: number } | { ok: false; reason: string };

export interface VerifyWebhookOptions {
  /** Default 300 seconds. */
  toleranceSeconds?: number;
  /** The receiver's clock in milliseconds; default Date.now. */
  now?: () => number;
}

/**
 * Verifies an `X-Partner-Signature` header (`t=<unix seconds>,v1=<hex>[,v1=<hex>]`) against the raw
 * body bytes as received: true when one v1 is the HMAC-SHA256, under one of the secrets, of
 * `<t>.<raw body>` (compared in constant time) and `t` is within the tolerance. During a secret
 * rotation pass both secrets. Never re-serialise parsed JSON before verifying.
 */
export function verifyWebhookSignature(
  header: string | string[] | undefined | null,
  rawBody: Uint8Array | string,
  secrets: string | readonly string[],
  options: VerifyWebhookOptions = {},
): WebhookVerdict {
  const keys = typeof secrets === 'string' ? [secrets] : [...secrets];
  if (keys.length === 0 || keys.some((secret) => typeof secret !== 'string' || secret === '')) {
    throw new Error('verifyWebhookSignature: secrets must be a non-empty string or a list of them');
  }
  const parsed = parseSignatureHeader(Array.isArray(header) ? header.join(',') : header);
  if (!parsed) return { ok: false, reason: 'missing or malformed X-Partner-Signature' };
  const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
  if (Math.abs(nowSeconds - parsed.timestamp) > (options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS)) {
    return { ok: false, reason: 'timestamp outside the tolerance' };
  }
  const body =
    typeof rawBody === 'string'
      ? Buffer.from(rawBody, 'utf8')
      : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  const signed = Buffer.concat([Buffer.from(`${parsed.timestamp}.`, 'utf8'), body]);
  for (const secret of keys) {
    const expected = createHmac('sha256', secret).update(signed).digest();
    for (const signature of parsed.signatures) {
      if (/^[0-9a-f]{64}$/i.test(signature) && timingSafeEqual(Buffer.from(signature, 'hex'), expected)) {
        return { ok: true, timestamp: parsed.timestamp };
      }
    }
  }
  return { ok: false, reason: 'no signature matches' };
}

/** `t` and every `v1` of the header; entries of other names (future schemes) are ignored. Null when malformed. */
export function parseSignatureHeader(
  header: string | undefined | null,
): { timestamp: number; signatures: string[] } | null {
  if (typeof header !== 'string') return null;
  let timestamp: string | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator < 1) return null;
    const name = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (name === 't') timestamp = value;
    else if (name === 'v1') signatures.push(value);
  }
  if (timestamp === null || !/^\d{1,15}$/.test(timestamp) || signatures.length === 0) return null;
  return { timestamp: Number(timestamp), signatures };
}
