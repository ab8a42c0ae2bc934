'use strict';
// A webhook receiver for transaction.succeeded and transaction.failed events, with node:http only.
//
//   WEBHOOK_SECRET=whsec_... PORT=8080 node webhook-receiver.js
//
// During a secret rotation, WEBHOOK_SECRET may hold both secrets, comma-separated.
// As a module: const { createReceiver } = require('./webhook-receiver.js');

const { createHmac, timingSafeEqual } = require('node:crypto');
const { createServer } = require('node:http');

const TOLERANCE_SECONDS = 5 * 60;
const MAX_BODY_BYTES = 64 * 1024;

/** Splits `t=<unix>,v1=<hex>[,v1=<hex>]` into the timestamp and every v1 signature; null if malformed. */
function parseSignatureHeader(header) {
  if (typeof header !== 'string') return null;
  let timestamp = null;
  const signatures = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator < 1) return null;
    const name = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (name === 't') timestamp = value;
    else if (name === 'v1') signatures.push(value);
  }
  if (timestamp === null || !/^\d+$/.test(timestamp) || signatures.length === 0) return null;
  return { timestamp: Number(timestamp), signatures };
}

/**
 * True when one v1 signature is the HMAC-SHA256, under one of the secrets, of "<t>.<raw body>",
 * and t is within the tolerance of the receiver's clock (this refuses replays of old deliveries).
 */
function verifySignature(header, rawBody, secrets, options = {}) {
  const tolerance = options.toleranceSeconds ?? TOLERANCE_SECONDS;
  const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
  const parsed = parseSignatureHeader(header);
  if (!parsed) return { ok: false, reason: 'missing or malformed X-Partner-Signature' };
  if (Math.abs(nowSeconds - parsed.timestamp) > tolerance) return { ok: false, reason: 'timestamp outside the tolerance' };
  const signed = Buffer.concat([Buffer.from(`${parsed.timestamp}.`, 'utf8'), rawBody]);
  for (const secret of secrets) {
    const expected = createHmac('sha256', secret).update(signed).digest();
    for (const signature of parsed.signatures) {
      if (!/^[0-9a-f]{64}$/i.test(signature)) continue;
      if (timingSafeEqual(Buffer.from(signature, 'hex'), expected)) return { ok: true };
    }
  }
  return { ok: false, reason: 'no signature matches' };
}

/**
 * An http.Server (not yet listening) that verifies each delivery, then hands each event to
 * `onEvent` once. A repeated event id is answered 200 without calling `onEvent` again.
 * If `onEvent` throws, the answer is 500 and the service retries the delivery later.
 *
 * `seen` remembers event ids in memory; in production use a table with a unique key on
 * event_id, written in the same transaction as whatever the event changes.
 */
function createReceiver({ secret, onEvent, toleranceSeconds = TOLERANCE_SECONDS, now = Date.now, seen = new Set() }) {
  const secrets = Array.isArray(secret) ? secret : [secret];
  if (secrets.length === 0 || secrets.some((entry) => typeof entry !== 'string' || entry === '')) {
    throw new Error('createReceiver: secret must be a non-empty string or an array of them');
  }
  const reply = (response, status, message) => {
    response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
    response.end(`${message}\n`);
  };

  return createServer((request, response) => {
    if (request.method !== 'POST') return reply(response, 405, 'POST only');
    const chunks = [];
    let size = 0;
    request.on('data', (chunk) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', async () => {
      if (size > MAX_BODY_BYTES) return reply(response, 413, 'body too large');
      // Verify the bytes exactly as received: never re-serialise the parsed JSON.
      const rawBody = Buffer.concat(chunks);
      const verdict = verifySignature(request.headers['x-partner-signature'], rawBody, secrets, { toleranceSeconds, now });
      if (!verdict.ok) return reply(response, 400, verdict.reason);

      let event;
      try {
        event = JSON.parse(rawBody.toString('utf8'));
      } catch {
        return reply(response, 400, 'body is not JSON');
      }
      // event_id is inside the signed body; the X-Partner-Event-Id header carries the same value.
      const eventId = event && event.event_id;
      if (typeof eventId !== 'string' || eventId === '') return reply(response, 400, 'event_id missing');
      if (seen.has(eventId)) return reply(response, 200, 'duplicate ignored');

      seen.add(eventId);
      try {
        await onEvent(event);
      } catch (error) {
        seen.delete(eventId);
        return reply(response, 500, 'not processed; please retry');
      }
      reply(response, 200, 'ok');
    });
    request.on('error', () => response.destroy());
  });
}

module.exports = { createReceiver, verifySignature, parseSignatureHeader, TOLERANCE_SECONDS };

if (require.main === module) {
  const secrets = (process.env.WEBHOOK_SECRET || '').split(',').filter(Boolean);
  if (secrets.length === 0) {
    process.stderr.write('set WEBHOOK_SECRET to the webhook_secret you were given (two, comma-separated, during a rotation)\n');
    process.exit(1);
  }
  const server = createReceiver({
    secret: secrets,
    onEvent: (event) => {
      // Replace with your own handling: mark the order paid or refunded, notify your customer...
      process.stdout.write(`${JSON.stringify({ received: event.event, event_id: event.event_id, order_id: event.order_id })}\n`);
    },
  });
  const port = Number(process.env.PORT || 8080);
  const host = process.env.HOST || '127.0.0.1';
  server.listen(port, host, () => {
    process.stdout.write(`listening on http://${host}:${server.address().port}\n`);
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}
