import autocannon from 'autocannon';
import { TOPUP_BODY } from './admin';
import { LatencySamples, round } from './util';

export interface LoadResult {
  connections: number;
  duration_s: number;
  requests: number;
  ok: number;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  mean_ms: number;
  max_ms: number;
  non_2xx: number;
  errors: number;
  timeouts: number;
  statuses: Record<string, number>;
  /** Requests built (an upper bound of those sent): a request still in flight when the run stops is never answered. */
  sent: number;
}

export interface LoadOptions {
  url: string;
  connections: number;
  /** Seconds of load; ignored when `amount` is given. */
  durationSeconds: number;
  /** A fixed number of requests instead of a duration. */
  amount?: number;
  /** Called every second with the responses so far (progress and RSS sampling). */
  onTick?: (done: number) => void;
}

let sequence = 0;
const runTag = `${process.pid.toString(36)}${Date.now().toString(36)}`;

/** A fresh Idempotency-Key for each request, unique across the whole bench run. */
export const nextIdempotencyKey = (): string => `bench-${runTag}-${(sequence++).toString(36)}`;

/**
 * A different recipient for each topup, from 100,000 Indian mobile numbers that all end in the sandbox's
 * instant-success suffix: the service keeps the numbers it read lately (10,000), and a bench that topped
 * up one number would measure that memory instead of the reading.
 */
let recipient = Math.floor(Math.random() * 100_000);
export const nextTopupBody = (): string =>
  JSON.stringify({ ...TOPUP_BODY, phone: `+919${String(recipient++ % 100_000).padStart(5, '0')}0001` });

/** POST /v1/partner/topup (or the same request to `path`), one distinct Idempotency-Key per request, keys taken round-robin. */
export function topupLoad(
  options: LoadOptions,
  keys: readonly string[],
  path = '/v1/partner/topup',
): Promise<LoadResult> {
  let turn = 0;
  return run(options, {
    method: 'POST',
    path,
    setupRequest: (request) => {
      const key = keys[turn++ % keys.length];
      return {
        ...request,
        headers: {
          authorization: `Bearer ${key}`,
          'idempotency-key': nextIdempotencyKey(),
          'content-type': 'application/json',
        },
        body: nextTopupBody(),
      };
    },
  });
}

/** GET a partner path (balance), keys taken round-robin. */
export function getLoad(options: LoadOptions, path: string, keys: readonly string[]): Promise<LoadResult> {
  let turn = 0;
  return run(options, {
    method: 'GET',
    path,
    setupRequest: (request) => ({ ...request, headers: { authorization: `Bearer ${keys[turn++ % keys.length]}` } }),
  });
}

async function run(options: LoadOptions, given: autocannon.Request): Promise<LoadResult> {
  let sent = 0;
  const setup = given.setupRequest;
  const request: autocannon.Request =
    typeof setup === 'function'
      ? {
          ...given,
          setupRequest: (req, context) => {
            sent += 1;
            return setup(req, context);
          },
        }
      : given;
  const samples = new LatencySamples();
  const statuses: Record<string, number> = {};
  let done = 0;
  const started = process.hrtime.bigint();
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    pipelining: 1,
    timeout: 30,
    ...(options.amount !== undefined ? { amount: options.amount } : { duration: options.durationSeconds }),
    requests: [request],
    setupClient: (client) => {
      client.on('response', (statusCode: number, _bytes: number, responseTime: number) => {
        samples.add(responseTime);
        statuses[statusCode] = (statusCode in statuses ? statuses[statusCode] : 0) + 1;
        done += 1;
      });
    },
  });
  const ticker = options.onTick ? setInterval(() => options.onTick?.(done), 1000) : null;
  try {
    const result = await instance;
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const ok = Object.entries(statuses).reduce(
      (sum, [status, count]) => (status.startsWith('2') ? sum + count : sum),
      0,
    );
    return {
      connections: options.connections,
      duration_s: round(seconds, 2),
      requests: samples.size,
      ok,
      rps: round(ok / seconds, 1),
      ...samples.summary(),
      non_2xx: samples.size - ok,
      errors: result.errors,
      timeouts: result.timeouts,
      statuses,
      sent,
    };
  } finally {
    if (ticker) clearInterval(ticker);
  }
}
