#!/usr/bin/env node
'use strict';
// partner-cli: quick checks of the partner API and a local webhook forwarder, with the API key only.
//
//   PARTNER_API_KEY=svc_test_... npx partner-cli listen --forward-to http://localhost:4000/hooks
//   PARTNER_API_KEY=svc_test_... npx partner-cli balance
//
// PARTNER_API_URL is the service's address (default http://localhost:3000).

const { createHmac, randomBytes, randomUUID } = require('node:crypto');

const USAGE = `Usage: partner-cli <command> [options]

Commands:
  listen --forward-to <url> [--after <cursor>]
      Follows the events stream and POSTs each event to <url>, signed like a webhook with a
      signing secret printed at start. Sandbox keys (svc_test_) only. Without --after it starts
      with the first event of the feed; give the cursor of a printed line to start after it.
  balance                      GET /balance
  status <order_id>            GET /transactions/<order_id>
  topup --operator <id> --phone <number> --amount <decimal> [--reference <text>] [--idempotency-key <key>]
                               POST /topup

Environment:
  PARTNER_API_KEY   the API key (required)
  PARTNER_API_URL   the service's address, default http://localhost:3000
`;

const RECONNECT_MS = 2000;

class UsageError extends Error {}

/** `--name value` pairs and positional words. */
function parseArguments(words) {
  const options = {};
  const positional = [];
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index];
    if (word.startsWith('--')) {
      const name = word.slice(2);
      const value = words[index + 1];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`--${name} needs a value`);
      options[name] = value;
      index += 1;
    } else positional.push(word);
  }
  return { options, positional };
}

function settings(env) {
  const key = env.PARTNER_API_KEY;
  if (!key) throw new UsageError('set PARTNER_API_KEY to your API key');
  const base = (env.PARTNER_API_URL || 'http://localhost:3000').replace(/\/+$/, '');
  const apiBase = base.endsWith('/v1/partner') ? base : `${base}/v1/partner`;
  return { key, apiBase };
}

/** Same algorithm as the service's webhooks: HMAC-SHA256 over "<t>.<raw body>", header `t=<unix>,v1=<hex>`. */
function signatureHeader(secret, unixSeconds, body) {
  return `t=${unixSeconds},v1=${createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex')}`;
}

async function call(api, method, path, body, headers = {}) {
  const response = await fetch(`${api.apiBase}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${api.key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body,
  });
  const text = await response.text();
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = { status: response.status, body: text };
  }
  return { status: response.status, body: parsed };
}

function printAnswer(out, answer) {
  out.write(`${JSON.stringify(answer.body, null, 2)}\n`);
  return answer.status >= 400 ? 1 : 0;
}

async function topup(api, options, out) {
  for (const name of ['operator', 'phone', 'amount']) {
    if (options[name] === undefined) throw new UsageError(`topup needs --${name}`);
  }
  if (!/^[0-9]+$/.test(options.operator)) throw new UsageError('--operator: an operator id (a whole number)');
  // The amount goes into the JSON text as written, so no binary fraction ever rounds it.
  if (!/^[0-9]{1,15}(\.[0-9]{1,4})?$/.test(options.amount)) {
    throw new UsageError('--amount: a decimal such as 100 or 99.50');
  }
  const fields = [
    `"operator_id":${options.operator}`,
    `"phone":${JSON.stringify(options.phone)}`,
    `"amount":${options.amount}`,
  ];
  if (options.reference !== undefined) fields.push(`"reference":${JSON.stringify(options.reference)}`);
  const idempotencyKey = options['idempotency-key'] || `partner-cli-${randomUUID()}`;
  const answer = await call(api, 'POST', '/topup', `{${fields.join(',')}}`, { 'idempotency-key': idempotencyKey });
  return printAnswer(out, answer);
}

/** Splits a text/event-stream into events ({ id, event, data }); comment lines (heartbeats) are skipped. */
async function* serverSentEvents(body) {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of body) {
    buffered += decoder.decode(chunk, { stream: true }).replace(/\r\n?/g, '\n');
    let end;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const event = { id: undefined, event: undefined, data: [] };
      for (const line of block.split('\n')) {
        if (line === '' || line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'id') event.id = value;
        else if (field === 'event') event.event = value;
        else if (field === 'data') event.data.push(value);
      }
      if (event.data.length) yield { id: event.id, event: event.event, data: event.data.join('\n') };
    }
  }
}

/** "key_revoked (the API key is not valid or has been revoked)" from a stream.closed event's data. */
function describeClose(data) {
  try {
    const parsed = JSON.parse(data);
    return `${parsed.reason} (${parsed.detail})`;
  } catch {
    return data;
  }
}

async function forward(target, secret, event, out) {
  const body = event.data;
  let eventId = '';
  let orderId = '';
  try {
    const parsed = JSON.parse(body);
    eventId = String(parsed.event_id ?? '');
    orderId = String(parsed.order_id ?? '');
  } catch {
    // Forwarded as it came; the line shows no ids.
  }
  let outcome;
  try {
    const response = await fetch(target, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'partner-cli',
        'x-partner-event': event.event ?? '',
        'x-partner-event-id': eventId,
        'x-partner-signature': signatureHeader(secret, Math.floor(Date.now() / 1000), body),
      },
      body,
    });
    await response.arrayBuffer();
    outcome = `${response.status}`;
  } catch (error) {
    outcome = `error: ${error.cause?.code ?? error.message}`;
  }
  const at = new Date().toISOString();
  out.write(`${at} ${event.event} ${eventId} order ${orderId} -> ${outcome} (cursor ${event.id})\n`);
}

async function listen(api, options, io) {
  const target = options['forward-to'];
  if (!target) throw new UsageError('listen needs --forward-to <url>');
  try {
    new URL(target);
  } catch {
    throw new UsageError('--forward-to: a URL such as http://localhost:4000/hooks');
  }
  if (!api.key.startsWith('svc_test_')) {
    io.err.write('partner-cli listen works with sandbox keys (svc_test_...) only; this key is not one.\n');
    return 2;
  }
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  io.out.write(`Signing secret for this session (verify forwarded events with it): ${secret}\n`);
  io.out.write(`Forwarding events to ${target}. Ctrl-C stops.\n`);
  let lastId = options.after ?? null;
  while (!io.signal.aborted) {
    try {
      const response = await fetch(`${api.apiBase}/events/stream`, {
        headers: {
          authorization: `Bearer ${api.key}`,
          accept: 'text/event-stream',
          ...(lastId ? { 'last-event-id': lastId } : {}),
        },
        signal: io.signal,
      });
      if (response.status === 400 || response.status === 401 || response.status === 403) {
        io.err.write(`the service refused the stream (${response.status}): ${await response.text()}\n`);
        return 1;
      }
      if (response.status !== 200 || !response.body) {
        io.err.write(`the stream answered ${response.status}; reconnecting\n`);
        await response.arrayBuffer().catch(() => undefined);
      } else {
        for await (const event of serverSentEvents(response.body)) {
          // The stream's last event says why it ended (the key revoked or expired, ...): not a webhook.
          if (event.event === 'stream.closed') {
            io.err.write(`the stream ended: ${describeClose(event.data)}; reconnecting\n`);
            break;
          }
          await forward(target, secret, event, io.out);
          if (event.id) lastId = event.id;
        }
      }
    } catch (error) {
      if (io.signal.aborted) break;
      io.err.write(`stream interrupted (${error.cause?.code ?? error.message}); reconnecting\n`);
    }
    if (!io.signal.aborted) await pause(RECONNECT_MS, io.signal);
  }
  return 0;
}

const pause = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** Runs one command; returns the exit code. */
async function main(argv, io) {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help') {
    io.out.write(USAGE);
    return command ? 0 : 2;
  }
  try {
    const { options, positional } = parseArguments(rest);
    const api = settings(io.env);
    switch (command) {
      case 'balance':
        return printAnswer(io.out, await call(api, 'GET', '/balance'));
      case 'status':
        if (positional.length !== 1) throw new UsageError('status needs one order id');
        return printAnswer(io.out, await call(api, 'GET', `/transactions/${encodeURIComponent(positional[0])}`));
      case 'topup':
        return await topup(api, options, io.out);
      case 'listen':
        return await listen(api, options, io);
      default:
        throw new UsageError(`unknown command ${command}`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.err.write(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    io.err.write(`partner-cli: ${error.cause?.code ?? error.message}\n`);
    return 1;
  }
}

module.exports = { main, signatureHeader, serverSentEvents };

if (require.main === module) {
  const abort = new AbortController();
  process.on('SIGINT', () => abort.abort());
  process.on('SIGTERM', () => abort.abort());
  const io = { out: process.stdout, err: process.stderr, env: process.env, signal: abort.signal };
  main(process.argv.slice(2), io).then((code) => {
    process.exitCode = code;
  });
}
