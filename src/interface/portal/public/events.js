// @ts-check
// The live events list, read from GET /events/stream with fetch (an EventSource cannot send the key). The stream
// ends every few minutes; the list reconnects with Last-Event-ID and misses nothing.
import { API, ApiError, refusal, session } from './api.js';
import { lowBalanceReached, reloadSoon } from './balance.js';
import { $, cell, fail, when } from './page.js';

/** How many of the latest events the list starts with, and the most it keeps. */
const FIRST_EVENTS = 50;
const KEPT_EVENTS = 200;
/** Waits before reconnecting: after a normal end, and the longest after repeated failures. */
const RECONNECT_MS = 2_000;
const MAX_RECONNECT_MS = 60_000;

/** The stream being read, and the last event id received (to resume after it). */
let following = /** @type {AbortController | null} */ (null);
let lastEventId = /** @type {string | null} */ (null);
const shown = new Set();

/** @param {string} text @param {boolean} [trouble] */
function status(text, trouble = false) {
  $('events-status').textContent = text;
  $('events-status').className = trouble ? 'error' : 'muted';
}

/** @param {Record<string, any>} event */
function summary(event) {
  switch (event.event) {
    case 'transaction.succeeded':
      return `${event.amount_local} ${event.currency} · operator ref ${event.operator_ref ?? '—'}${event.reference ? ` · ${event.reference}` : ''}`;
    case 'transaction.failed':
      return `${event.amount_local} ${event.currency} refunded`;
    case 'wallet.low_balance':
      return `${event.available_balance} ${event.currency} available, below ${event.low_balance_threshold}`;
    default:
      return '';
  }
}

/** @param {string} name @param {string} data */
function received(name, data) {
  /** @type {Record<string, any>} */
  let event;
  try {
    event = JSON.parse(data);
  } catch {
    return;
  }
  if (shown.has(event.event_id)) return;
  shown.add(event.event_id);
  const row = document.createElement('tr');
  row.dataset.eventId = String(event.event_id);
  row.dataset.event = name;
  row.append(
    cell('td', when(event.settled_at ?? event.refunded_at ?? event.occurred_at)),
    cell('td', name, `event ${name.replace('.', '-')}`),
    cell('td', String(event.order_id ?? ''), 'mono'),
    cell('td', summary(event)),
  );
  const body = $('events');
  body.prepend(row);
  while (body.rows.length > KEPT_EVENTS) body.deleteRow(-1);
  $('events-empty').hidden = true;
  if (name === 'wallet.low_balance') lowBalanceReached(event);
  else if (name === 'transaction.failed') reloadSoon(); // the refund moved the balance
}

/** Reads one stream answer to its end, handing each event over. @param {ReadableStream<Uint8Array>} stream @param {number} generation */
async function readEvents(stream, generation) {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done || generation !== session.generation) return;
    buffered += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
    let end;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      let id = null;
      let name = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('id:')) id = line.slice(3).trim();
        else if (line.startsWith('event:')) name = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length === 0) continue; // a heartbeat or the retry line
      if (id) lastEventId = id;
      received(name, data.join('\n'));
    }
  }
}

/** @param {number} ms @param {AbortSignal} signal */
const pause = (ms, signal) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve(undefined);
    });
  });

/** @param {AbortSignal} signal @param {number} generation */
async function follow(signal, generation) {
  let wait = RECONNECT_MS;
  while (!signal.aborted && generation === session.generation) {
    /** @type {Record<string, string>} */
    const headers = { Authorization: `Bearer ${session.key}`, Accept: 'text/event-stream' };
    if (lastEventId) headers['Last-Event-ID'] = lastEventId;
    try {
      const response = await fetch(`${API}/events/stream${lastEventId ? '' : `?last=${FIRST_EVENTS}`}`, {
        headers,
        signal,
        cache: 'no-store',
        credentials: 'omit',
      });
      if (generation !== session.generation) return;
      if (!response.ok || !response.body) {
        const refused = refusal(response, await response.text().catch(() => ''));
        if (refused.status === 401) {
          fail(refused);
          return;
        }
        const retryAfter = Number(refused.retryAfter);
        wait = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : wait;
        throw refused;
      }
      status('Live: new events appear here as they happen.');
      wait = RECONNECT_MS;
      await readEvents(response.body, generation);
      if (generation !== session.generation || signal.aborted) return;
      status('Reconnecting…');
    } catch (error) {
      if (signal.aborted || generation !== session.generation) return;
      const why = error instanceof ApiError ? error.message : 'the connection dropped';
      status(`Not live (${why}); trying again in ${Math.round(wait / 1000)} s.`, true);
    }
    await pause(wait, signal);
    wait = Math.min(wait * 2, MAX_RECONNECT_MS);
  }
}

/** Starts the live list for the signed-in key (from its latest events). */
export function startEvents() {
  stopEvents();
  const controller = new AbortController();
  following = controller;
  status('Connecting…');
  follow(controller.signal, session.generation).catch(fail);
}

/** Ends the live list and forgets what it showed (sign-out). */
export function stopEvents() {
  following?.abort();
  following = null;
  lastEventId = null;
  shown.clear();
}
