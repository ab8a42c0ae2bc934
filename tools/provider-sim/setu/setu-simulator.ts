import { IncomingMessage, Server, createServer } from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import { Answer, notFound, ok, parse, readBody, reply } from '../sim-http';
import { SETU_SIM_BILLERS } from './setu-sim-catalog';
import { SetuSimBills } from './setu-sim-bills';
import { pageOf, setuError, setuOk, traceId } from './setu-sim-http';
import { SetuSimPayments } from './setu-sim-payments';
import { SetuSimState } from './setu-sim-state';

/**
 * An upstream simulator speaking Setu's BBPS BillPay v2 protocol on one loopback port, written
 * from Setu's published documentation and OpenAPI (not from the service's adapter): bearer
 * tokens from /api/v2/auth/token that expire, the X-PARTNER-ID header checked on every call,
 * the biller catalog, asynchronous bill fetches (request, then the answer by refId, Processing
 * at first), payments by fetch refId with the paymentRefId as idempotency key (409 duplicate),
 * payment status by refId, and the transactions list. A control API under /__sim serves tests.
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
  const bills = new SetuSimBills(state, options.fetchPendingReads ?? 1);
  const payments = new SetuSimPayments(state, {
    settleAfterMs: options.settleAfterMs ?? 30_000,
    hangMs: options.hangMs ?? 120_000,
    listLagMs: options.listLagMs ?? 300_000,
  });
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
    if (pathname.startsWith('/__sim/')) return control(method, pathname);
    if (pathname === '/api/v2/health' && method === 'GET')
      return ok({ environment: 'SIMULATOR', server: 'setu-sim', version: '1' });
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
      token: state.issueToken(tokenTtlMs, Date.now()),
      success: true,
      traceId: traceId(),
    });
  }

  function authorize(request: IncomingMessage): Answer | null {
    const header = request.headers.authorization ?? '';
    const expiresAt = header.startsWith('Bearer ') ? state.tokens.get(header.slice(7)) : undefined;
    if (expiresAt === undefined || expiresAt <= Date.now())
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
        supportsPendingStatus: false,
        paymentChannels: [{ paymentChannel: 'INT', minLimit: 100, maxLimit: 20_000_000, supportsPendingStatus: false }],
        paymentModes: [{ paymentMode: 'Wallet', minLimit: 100, maxLimit: 20_000_000, supportsPendingStatus: false }],
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

  function control(method: string, path: string): Answer {
    if (method === 'GET' && path === '/__sim/state')
      return ok({
        tokensIssued: state.tokensIssued,
        fetches: [...state.fetches.values()],
        payments: state.payments,
        submissions: state.submissions,
      });
    if (method === 'POST' && path === '/__sim/tokens/expire') return ok({ expired: state.expireTokens() });
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
