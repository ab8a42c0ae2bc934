import { IncomingMessage, Server, createServer } from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import { Answer, notFound, ok, parse, readBody, reply } from '../sim-http';
import { SETU_SIM_BILLERS, SetuSimBiller } from './setu-sim-catalog';
import { SetuSimBills } from './setu-sim-bills';
import { faultAnswer } from './setu-sim-faults';
import { pageOf, setuError, setuOk, traceId } from './setu-sim-http';
import { SetuSimPayments } from './setu-sim-payments';
import { SetuSimFault, SetuSimState } from './setu-sim-state';

/**
 * An upstream simulator speaking Setu's BBPS BillPay v2 protocol on one loopback port, written
 * from Setu's published documentation and OpenAPI (not from the service's adapter): bearer
 * tokens from /api/v2/auth/token that expire, the X-PARTNER-ID header checked on every call,
 * the biller catalog, asynchronous bill fetches (request, then the answer by refId, Processing
 * at first), payments by fetch refId with the paymentRefId as idempotency key (409 duplicate),
 * payment status by refId, and the transactions list. A control API under /__sim serves tests:
 * faults of the next calls (`/__sim/faults`), a convenience fee given to a biller (`/__sim/billers/<id>/fee`),
 * tokens expired at once. Its time is `now` (a test's clock), which tokens, payments and the list follow.
 */
export interface SetuSimulatorOptions {
  port?: number;
  host?: string;
  seed?: number;
  /** Token lifetime (Setu's examples: 600 s). */
  tokenTtlSeconds?: number;
  /** The partner id X-PARTNER-ID must carry. */
  partnerId?: string;
  /** When both are set, only these credentials get tokens. */
  clientId?: string;
  clientSecret?: string;
  /** How long a Processing payment stays so before its final status shows. */
  settleAfterMs?: number;
  /** How long the connection of a payment whose answer is lost (0007, 0008, 0011) is held before it is dropped. */
  hangMs?: number;
  /** How long a 0011 payment stays out of the transactions list. */
  listLagMs?: number;
  /** How many reads of a fetch's answer say Processing before it is answered. */
  fetchPendingReads?: number;
  /** How long a payment to a biller that supports pending status stays Processing (default a day). */
  pendingForMs?: number;
  /** The Retry-After (seconds) of a 429 (scenario 0014, the rate_limited fault). */
  retryAfterSeconds?: number;
  /** The simulator's clock (default the machine's): tests move it with their own. */
  now?: () => number;
}

export interface RunningSetuSimulator {
  url: string;
  partnerId: string;
  state: SetuSimState;
  close(): Promise<void>;
}

export async function startSetuSimulator(options: SetuSimulatorOptions = {}): Promise<RunningSetuSimulator> {
  const state = new SetuSimState(options.seed ?? 1);
  const partnerId = options.partnerId ?? '1001';
  const tokenTtlMs = (options.tokenTtlSeconds ?? 600) * 1000;
  const now = options.now ?? Date.now;
  const retryAfterSeconds = options.retryAfterSeconds ?? 30;
  const bills = new SetuSimBills(state, options.fetchPendingReads ?? 1, now);
  const payments = new SetuSimPayments(
    state,
    {
      settleAfterMs: options.settleAfterMs ?? 30_000,
      hangMs: options.hangMs ?? 120_000,
      listLagMs: options.listLagMs ?? 300_000,
      pendingForMs: options.pendingForMs ?? 86_400_000,
      retryAfterSeconds,
    },
    now,
  );
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const server: Server = createServer((request, response) => {
    void readBody(request).then((raw) => {
      let answer: Answer;
      try {
        answer = route(request, raw);
      } catch (problem) {
        answer = setuError(500, 'internal-error', (problem as Error).message);
      }
      if (answer.hangMs !== undefined) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          request.socket.destroy();
        }, answer.hangMs);
        timers.add(timer);
        return;
      }
      reply(response, answer);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? '127.0.0.1';
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  function route(request: IncomingMessage, raw: string): Answer {
    const { pathname, searchParams } = new URL(request.url ?? '/', 'http://simulator');
    const method = request.method ?? 'GET';
    if (pathname.startsWith('/__sim/')) return control(method, pathname, raw);
    if (pathname === '/api/v2/health' && method === 'GET')
      return ok({ environment: 'SIMULATOR', server: 'setu-sim', version: '1' });
    const fault = state.takeFault(pathname);
    if (fault) return faultAnswer(fault, pathname, retryAfterSeconds);
    if (pathname === '/api/v2/auth/token' && method === 'POST') return token(parse(raw));
    const refusal = authorize(request);
    if (refusal) return refusal;
    const body = parse(raw);
    if (method === 'POST' && pathname === '/api/v2/bbps/bills/fetch/request') return bills.request(body);
    if (method === 'POST' && pathname === '/api/v2/bbps/bills/fetch/response') return bills.response(body);
    if (method === 'POST' && pathname === '/api/v2/bbps/bills/payment/request') return payments.request(body);
    if (method === 'POST' && pathname === '/api/v2/bbps/bills/payment/response') return payments.response(body);
    if (method === 'GET' && pathname === '/api/v2/bbps/transactions') return payments.list(searchParams, pathname);
    if (method === 'GET' && pathname === '/api/v2/bbps/billers') return billers(searchParams, pathname);
    return notFound(pathname);
  }

  function token(body: Record<string, unknown> | null): Answer {
    const matches =
      options.clientId === undefined ||
      options.clientSecret === undefined ||
      (body?.clientID === options.clientId && body.secret === options.clientSecret);
    if (typeof body?.clientID !== 'string' || typeof body.secret !== 'string' || !matches)
      return setuError(400, 'invalid-credentials', 'Invalid Credentials.');
    return ok({
      expiresIn: tokenTtlMs / 1000,
      token: state.issueToken(tokenTtlMs, now()),
      success: true,
      traceId: traceId(),
    });
  }

  function authorize(request: IncomingMessage): Answer | null {
    const header = request.headers.authorization ?? '';
    const expiresAt = header.startsWith('Bearer ') ? state.tokens.get(header.slice(7)) : undefined;
    if (expiresAt === undefined || expiresAt <= now())
      return setuError(401, 'unauthorized', expiresAt === undefined ? 'Invalid token.' : 'Token expired.');
    if (request.headers['x-partner-id'] !== partnerId)
      return setuError(403, 'forbidden', 'X-PARTNER-ID is missing or does not match the credentials.');
    return null;
  }

  function billers(query: URLSearchParams, path: string): Answer {
    const ids = query.get('ids')?.split(',').filter(Boolean);
    const categories = query.getAll('categoryName');
    const chosen = SETU_SIM_BILLERS.filter(
      (biller) =>
        (!ids || ids.includes(biller.id)) && (categories.length === 0 || categories.includes(biller.categoryName)),
    );
    const { page, nextPage } = pageOf(chosen, (biller) => biller.id, query, path);
    return setuOk({
      billers: page.map((biller) => ({
        id: biller.id,
        name: biller.name,
        categoryName: biller.categoryName,
        coverage: 'IND',
        country: 'IND',
        exactness: biller.exactness,
        fetchApiType: biller.fetchApiType,
        payWithoutFetchAllowed: false,
        supportsPendingStatus: biller.supportsPendingStatus ?? false,
        paymentChannels: [
          {
            paymentChannel: 'INT',
            minLimit: 100,
            maxLimit: 20_000_000,
            supportsPendingStatus: biller.supportsPendingStatus ?? false,
          },
        ],
        paymentModes: [
          {
            paymentMode: 'Wallet',
            minLimit: 100,
            maxLimit: 20_000_000,
            supportsPendingStatus: biller.supportsPendingStatus ?? false,
          },
        ],
        interchangeFee: interchangeFeeOf(biller),
        customerParams: biller.customerParams.map((param) => ({
          dataType: 'ALPHANUMERIC',
          maxLength: null,
          minLength: null,
          optional: param.optional,
          paramName: param.paramName,
          regex: param.regex,
          values: '',
          visibility: true,
        })),
      })),
      nextPage,
      total: chosen.length,
    });
  }

  /** The biller's fees in Setu's List Billers shape, with a convenience fee a test gave it. */
  function interchangeFeeOf(biller: SetuSimBiller): unknown[] {
    const added = state.customerFees.get(biller.id);
    const fees = [
      ...(biller.interchangeFee ?? []),
      ...(added === undefined ? [] : [{ feeCode: 'CCF1', feeDirection: 'C2B', flatFee: added, percentFee: 0 }]),
    ];
    return fees.map(({ feeCode, feeDirection, flatFee, percentFee }) => ({
      feeCode,
      feeDesc: feeCode === 'CCF1' ? 'Customer_Convenience_Fee' : feeCode,
      feeDirection,
      interchangeFeeDetails: {
        effctvFrom: '2024-01-01',
        effctvTo: '',
        flatFee,
        percentFee,
        tranAmtRangeMax: 999_999_999_999,
        tranAmtRangeMin: 1,
      },
    }));
  }

  function control(method: string, path: string, raw: string): Answer {
    if (method === 'GET' && path === '/__sim/state')
      return ok({
        tokensIssued: state.tokensIssued,
        fetches: [...state.fetches.values()],
        payments: state.payments,
        submissions: state.submissions,
        faults: state.faults,
      });
    if (method === 'POST' && path === '/__sim/tokens/expire') return ok({ expired: state.expireTokens() });
    if (method === 'POST' && path === '/__sim/faults') {
      const body = parse(raw);
      const kinds: SetuSimFault['kind'][] = ['html', 'unsuccessful', 'without_data', 'not_a_list', 'rate_limited'];
      const kind = kinds.find((candidate) => candidate === body?.kind);
      const count = typeof body?.count === 'number' && Number.isSafeInteger(body.count) ? body.count : 1;
      if (!kind || count < 1) return setuError(400, 'validation-error', `kind (one of ${kinds.join(', ')}) and count`);
      const fault: SetuSimFault = { kind, path: typeof body?.path === 'string' ? body.path : null, remaining: count };
      state.faults.push(fault);
      return ok(fault as unknown as Record<string, unknown>);
    }
    const feeOf = /^\/__sim\/billers\/([A-Za-z0-9]+)\/fee$/.exec(path);
    if (method === 'POST' && feeOf) {
      const flatFee = parse(raw)?.flatFee;
      if (typeof flatFee !== 'number' || !Number.isSafeInteger(flatFee) || flatFee < 0)
        return setuError(400, 'validation-error', 'flatFee (paise) is required');
      state.customerFees.set(feeOf[1], flatFee);
      return ok({ billerId: feeOf[1], flatFee });
    }
    return notFound(path);
  }

  return {
    url,
    partnerId,
    state,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
