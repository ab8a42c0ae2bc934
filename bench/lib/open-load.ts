import { appendFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { LoadResult, nextIdempotencyKey, nextTopupBody } from './load';
import { LatencySamples, round } from './util';

/** An open-model run: requests sent on a fixed schedule, whatever the answers' latency. */
export interface OpenLoadResult extends LoadResult {
  offered_rps: number;
  /** Requests the schedule called for. */
  scheduled: number;
  /** Scheduled sends not made because `max_in_flight` requests were still unanswered (the server fell behind). */
  missed: number;
  /** How late the generator itself sent, against the schedule (its own timer and event loop): p99 and max, ms. */
  send_lag_p99_ms: number;
  send_lag_max_ms: number;
  /** The most requests unanswered at once. */
  peak_in_flight: number;
  max_in_flight: number;
}

export interface OpenLoadOptions {
  url: string;
  /** Requests per second, sent at even intervals. */
  rate: number;
  seconds: number;
  keys: readonly string[];
  /**
   * Sockets the generator may hold open; past this a scheduled send is counted as missed, not
   * queued. 256 by default: the service accepts at most MAX_CONNECTIONS_PER_IP (256) connections
   * from one address, so more would be refused connections rather than a measure of latency.
   */
  maxInFlight?: number;
  path?: string;
}

/**
 * POST /v1/partner/topup at a fixed rate (an open model, unlike autocannon's connections, which
 * each wait for an answer before sending again, so a slow server is offered less). Each request
 * is due at start + i / rate and sent as soon as the generator's timer sees it due, on a socket
 * of its own when none is free; its latency runs from when it was due, not when it went out, so
 * a late send counts against the figure (no coordinated omission). Sends the generator could not
 * make because `maxInFlight` requests were outstanding are counted as missed.
 */
export async function openTopupLoad(options: OpenLoadOptions): Promise<OpenLoadResult> {
  const maxInFlight = options.maxInFlight ?? 256;
  const target = new URL(options.url);
  const agent = new Agent({ keepAlive: true, maxSockets: maxInFlight });
  const interval = 1000 / options.rate;
  const total = Math.max(1, Math.round(options.rate * options.seconds));
  const samples = new LatencySamples();
  const lags = new LatencySamples();
  const statuses: Record<string, number> = {};
  let errors = 0;
  let timeouts = 0;
  let missed = 0;
  let sent = 0;
  let inFlight = 0;
  let peak = 0;
  let turn = 0;
  let answered!: () => void;
  const allAnswered = new Promise<void>((resolve) => (answered = resolve));
  let next = 0;
  const finishOne = (): void => {
    inFlight -= 1;
    if (next >= total && inFlight === 0) answered();
  };

  const send = (due: number): void => {
    const body = nextTopupBody();
    const key = options.keys[turn++ % options.keys.length];
    sent += 1;
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    const lag = Math.max(0, performance.now() - due);
    const idempotencyKey = nextIdempotencyKey();
    lags.add(lag);
    const call = request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        method: 'POST',
        path: options.path ?? '/v1/partner/topup',
        timeout: 30_000,
        headers: {
          authorization: `Bearer ${key}`,
          'idempotency-key': idempotencyKey,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => {
          const latency = performance.now() - due;
          samples.add(latency);
          trace?.push(
            `${Math.round(performance.timeOrigin + due)} ${latency.toFixed(2)} ${lag.toFixed(2)} ${idempotencyKey}`,
          );
          const status = String(response.statusCode ?? 0);
          statuses[status] = (statuses[status] ?? 0) + 1;
          finishOne();
        });
      },
    );
    call.on('timeout', () => {
      timeouts += 1;
      call.destroy(new Error('timeout'));
    });
    call.on('error', () => {
      errors += 1;
      finishOne();
    });
    call.end(body);
  };

  const started = performance.now();
  // OPEN_LOAD_TRACE_FILE: each answer's due time (epoch ms), latency, send lag and Idempotency-Key, to see when the
  // slow ones came (bench/lib/request-watch.cjs writes the service's side, by key).
  const traceFile = process.env.OPEN_LOAD_TRACE_FILE;
  const trace: string[] | null = traceFile ? [] : null;
  await new Promise<void>((resolve) => {
    const tick = (): void => {
      const now = performance.now();
      for (; next < total && started + next * interval <= now; next++) {
        if (inFlight >= maxInFlight) missed += 1;
        else send(started + next * interval);
      }
      if (next < total) setTimeout(tick, Math.max(0, Math.min(interval, started + next * interval - now)));
      else resolve();
    };
    tick();
  });
  if (inFlight > 0) await allAnswered;
  if (trace && traceFile) appendFileSync(traceFile, `${trace.join('\n')}\n`);
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  const ok = Object.entries(statuses).reduce((sum, [status, count]) => (status.startsWith('2') ? sum + count : sum), 0);
  const lag = lags.summary();
  return {
    connections: peak,
    duration_s: round(seconds, 2),
    requests: samples.size,
    ok,
    rps: round(ok / seconds, 1),
    ...samples.summary(),
    non_2xx: samples.size - ok,
    errors,
    timeouts,
    statuses,
    sent,
    offered_rps: options.rate,
    scheduled: total,
    missed,
    send_lag_p99_ms: lag.p99_ms,
    send_lag_max_ms: lag.max_ms,
    peak_in_flight: peak,
    max_in_flight: maxInFlight,
  };
}
