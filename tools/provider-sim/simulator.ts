import { IncomingMessage, Server, createServer } from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import { authorize, issueToken } from './sim-auth';
import { SIM_BILLERS, SIM_OPERATORS } from './sim-catalog';
import { Answer, error, htmlPage, notFound, ok, page, parse, readBody, reply, stamp } from './sim-http';
import { SimClock } from './sim-clock';
import { billerJson, operatorJson, paymentItem, topupJson, topupStatusJson } from './sim-json';
import { literal, micros } from './sim-money';
import { SimOrders, rateLimited } from './sim-orders';
import { assertTimeZone } from './sim-time';
import { SimApi, SimState } from './sim-state';

/**
 * An upstream simulator speaking Reloadly's airtime and utilities protocol on one loopback port:
 * the OAuth token endpoint at /oauth/token, the airtime API under /airtime and the utilities API
 * under /utilities (each its own token audience), and a control API under /__sim for tests.
 */
export interface SimulatorOptions {
  port?: number;
  host?: string;
  /** Makes transaction and operator ids reproducible. */
  seed?: number;
  tokenTtlSeconds?: number;
  /** The account balance, a decimal text, in `currency`. */
  balance?: string;
  currency?: string;
  /** How long a PROCESSING order stays so before its final status shows. */
  settleAfterMs?: number;
  /** How long the long-processing scenarios (0017-0019) stay PROCESSING (default 6 hours). */
  longSettleAfterMs?: number;
  /** How long after its status a report-lag topup (0016) shows in the reports (default 5 minutes). */
  reportLagMs?: number;
  /** The simulator's clock (default: the machine's); tests give it the service's manual clock. POST /__sim/clock moves it. */
  now?: () => number;
  /** How late a slow answer (suffix 0006) comes. */
  slowMs?: number;
  /** How long the connection of an order that "times out" (0007, 0008, 0012) is held before it is dropped. */
  hangMs?: number;
  /** How long an attempt in flight (0012, 0015) stays out of every look-up (default 60 s). */
  invisibleMs?: number;
  /** Reloadly's two-minute rule for a number recharged recently; 0 turns it off (default 120 s). */
  recentRechargeMs?: number;
  /** The zone of the reports' wall-clock times (default America/New_York, as Reloadly's documented examples). */
  reportTimeZone?: string;
  /** The largest page a report gives, whatever size is asked (default 50). */
  maxPageSize?: number;
  /** The topup status answer as the bare transaction (the API reference's example) instead of the wrapper (default false). */
  flatStatus?: boolean;
  /**
   * The utility transactions as the API reference's example shows them: a plain array of the asked page,
   * without paging fields (default false: a page object with totalPages).
   */
  plainUtilityReports?: boolean;
  /** The utility transactions ignore the `referenceId` filter (the reference does not promise it; default false). */
  ignoreReferenceFilter?: boolean;
  /** The Retry-After of a 429, in seconds (default 1). */
  retryAfterSeconds?: number;
  /** Retry-After written as an HTTP date instead of seconds (default false). */
  retryAfterAsDate?: boolean;
  /** A token older than this is refused 401 TOKEN_EXPIRED, whatever its expires_in said (default: no limit). */
  tokenMaxAgeSeconds?: number;
  /** A topup's requestedAmount: 'account' (default), the cost as Reloadly's reference describes it; 'local', the amount asked. */
  requestedAmountIn?: 'account' | 'local';
  /** When both are set, only these credentials get tokens. */
  clientId?: string;
  clientSecret?: string;
}

export interface RunningSimulator {
  url: string;
  authUrl: string;
  topupsUrl: string;
  utilitiesUrl: string;
  state: SimState;
  clock: SimClock;
  close(): Promise<void>;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const timings = {
    settleAfterMs: options.settleAfterMs ?? 30_000,
    longSettleAfterMs: options.longSettleAfterMs ?? 6 * 3_600_000,
    reportLagMs: options.reportLagMs ?? 5 * 60_000,
    slowMs: options.slowMs ?? 3_000,
    hangMs: options.hangMs ?? 120_000,
    invisibleMs: options.invisibleMs ?? 60_000,
    recentRechargeMs: options.recentRechargeMs ?? 120_000,
    retryAfterSeconds: options.retryAfterSeconds ?? 1,
    retryAfterAsDate: options.retryAfterAsDate ?? false,
    requestedAmountIn: options.requestedAmountIn ?? 'account',
  };
  const maxPageSize = options.maxPageSize ?? 50;
  const reportTimeZone = options.reportTimeZone ?? 'America/New_York';
  assertTimeZone(reportTimeZone);
  const host = options.host ?? '127.0.0.1';
  const state = new SimState(
    options.seed ?? 1,
    micros(options.balance ?? '1000.00'),
    options.currency ?? 'USD',
    reportTimeZone,
    new SimClock(options.now),
  );
  const credentials = {
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    tokenTtlMs: (options.tokenTtlSeconds ?? 3600) * 1000,
    tokenMaxAgeMs: options.tokenMaxAgeSeconds === undefined ? null : options.tokenMaxAgeSeconds * 1000,
  };
  const orders = new SimOrders(state, timings);
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  };

  const server: Server = createServer((request, response) => {
    void readBody(request).then((raw) => {
      let answer: Answer;
      try {
        answer = route(request, raw);
      } catch (problem) {
        answer = {
          status: 500,
          body: {
            timestamp: stamp(),
            status: 500,
            error: 'Internal Server Error',
            message: (problem as Error).message,
          },
        };
      }
      if (answer.hangMs !== undefined) {
        later(answer.hangMs, () => request.socket.destroy());
        return;
      }
      const send = () => reply(response, answer);
      if (answer.delayMs) later(answer.delayMs, send);
      else send();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  function route(request: IncomingMessage, raw: string): Answer {
    const { pathname, searchParams } = new URL(request.url ?? '/', 'http://simulator');
    const method = request.method ?? 'GET';
    if (pathname === '/oauth/token' && method === 'POST') return issueToken(raw, state, credentials);
    if (pathname.startsWith('/__sim/')) return control(method, pathname, raw);
    const api: SimApi | null = pathname.startsWith('/airtime/')
      ? 'airtime'
      : pathname.startsWith('/utilities/')
        ? 'utilities'
        : null;
    if (!api) return notFound(pathname);
    const path = pathname.slice(api.length + 1);
    const refusal = authorize(request, api, pathname, state, credentials.tokenMaxAgeMs);
    if (refusal) return refusal;
    if (state.faults.rateLimitNext > 0) {
      state.faults.rateLimitNext--;
      return rateLimited(pathname, timings, state.now());
    }
    if (state.faults.htmlNext > 0) {
      state.faults.htmlNext--;
      return htmlPage();
    }
    return api === 'airtime'
      ? airtime(method, path, searchParams, raw, pathname)
      : utilities(method, path, searchParams, raw, pathname);
  }

  function airtime(method: string, path: string, query: URLSearchParams, raw: string, fullPath: string): Answer {
    if (method === 'GET' && path === '/accounts/balance') return balance();
    let match = /^\/operators\/countries\/([A-Za-z]{2})$/.exec(path);
    if (method === 'GET' && match) {
      const country = match[1].toUpperCase();
      if (!SIM_OPERATORS.some((operator) => operator.country === country))
        return error(404, 'COUNTRY_NOT_SUPPORTED', 'Country not found and/or not currently supported', fullPath);
      return ok(SIM_OPERATORS.filter((operator) => operator.country === country).map(operatorJson));
    }
    match = /^\/operators\/(\d+)$/.exec(path);
    if (method === 'GET' && match) {
      const operatorId = Number(match[1]);
      const operator = SIM_OPERATORS.find((candidate) => candidate.id === operatorId);
      return operator ? ok(operatorJson(operator)) : error(404, 'OPERATOR_NOT_FOUND', 'Operator not found', fullPath);
    }
    if (method === 'POST' && path === '/topups') return orders.sendTopup(raw, fullPath);
    match = /^\/topups\/(\d+)\/status$/.exec(path);
    if (method === 'GET' && match) {
      const transaction = state.transactions.find(
        (candidate) => candidate.api === 'airtime' && candidate.id === Number(match[1]) && orders.visible(candidate),
      );
      if (!transaction) return error(404, 'TRANSACTION_NOT_FOUND', 'Transaction not found', fullPath);
      orders.settle(transaction);
      return ok(topupStatusJson(state, transaction, options.flatStatus === true));
    }
    if (method === 'GET' && path === '/topups/reports/transactions') {
      const unavailable = reportUnavailable(fullPath);
      if (unavailable) return unavailable;
      return reportPage(
        ok(
          page(
            orders
              .report('airtime', query, 'customIdentifier', reportTimeZone)
              .map((transaction) => topupJson(state, transaction)),
            query,
            maxPageSize,
          ),
        ),
      );
    }
    return notFound(fullPath);
  }

  function utilities(method: string, path: string, query: URLSearchParams, raw: string, fullPath: string): Answer {
    if (method === 'GET' && path === '/accounts/balance') return balance();
    if (method === 'GET' && path === '/billers') {
      const country = query.get('countryISOCode')?.toUpperCase();
      const id = query.get('id');
      const billers = SIM_BILLERS.filter(
        (biller) => (!country || biller.country === country) && (!id || biller.id === Number(id)),
      );
      return ok(page(billers.map(billerJson), query));
    }
    if (method === 'POST' && path === '/pay') return orders.payBill(raw, fullPath);
    const match = /^\/transactions\/(\d+)$/.exec(path);
    if (method === 'GET' && match) {
      const transaction = state.transactions.find(
        (candidate) => candidate.api === 'utilities' && candidate.id === Number(match[1]) && orders.visible(candidate),
      );
      if (!transaction) return error(404, null, 'No message available', fullPath);
      orders.settle(transaction);
      return ok(paymentItem(state, transaction));
    }
    if (method === 'GET' && path === '/transactions') {
      const unavailable = reportUnavailable(fullPath);
      if (unavailable) return unavailable;
      const reported = page(
        orders
          .report('utilities', query, options.ignoreReferenceFilter ? null : 'referenceId', reportTimeZone)
          .map((transaction) => paymentItem(state, transaction)),
        query,
        maxPageSize,
      );
      return reportPage(ok(options.plainUtilityReports ? reported.content : reported));
    }
    return notFound(fullPath);
  }

  /** A page of a report, as late as the test asked (`state.reportPageDelayMs`). */
  function reportPage(answer: Answer): Answer {
    return state.reportPageDelayMs > 0 ? { ...answer, delayMs: state.reportPageDelayMs } : answer;
  }

  /** Reloadly's documented 404 of a report it cannot read just now: "try again later", not "nothing there". */
  function reportUnavailable(fullPath: string): Answer | null {
    if (state.faults.reportsUnavailableNext <= 0) return null;
    state.faults.reportsUnavailableNext--;
    return error(404, null, 'Could not retrieve/update resources at the moment, please try again later', fullPath);
  }

  function balance(): Answer {
    if (state.faults.balanceUnavailableNext > 0) {
      state.faults.balanceUnavailableNext--;
      return { status: 503, body: { timestamp: stamp(), status: 503, error: 'Service Unavailable' } };
    }
    return ok({
      balance: JSON.parse(literal(state.balance, 5)) as number,
      currencyCode: state.currency,
      currencyName: state.currency,
      updatedAt: stamp(state.now()),
    });
  }

  /** For tests and local trials: what was received, the balance, token expiry. */
  function control(method: string, path: string, raw: string): Answer {
    if (method === 'GET' && path === '/__sim/state') {
      return ok({
        now: new Date(state.now()).toISOString(),
        balance: literal(state.balance, 5),
        currency: state.currency,
        tokensIssued: state.tokensIssued,
        submissions: state.submissions,
        transactions: state.transactions.map((transaction) => ({
          api: transaction.api,
          id: transaction.id,
          reference: transaction.reference,
          status: transaction.status,
          target: transaction.target,
          visible: orders.visible(transaction),
        })),
        faults: state.faults,
      });
    }
    if (method === 'POST' && path === '/__sim/faults') {
      const body = parse(raw);
      const count = (name: keyof typeof state.faults) => {
        const value = body?.[name];
        if (value === undefined) return true;
        if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) return false;
        state.faults[name] = value;
        return true;
      };
      if (
        !count('rateLimitNext') ||
        !count('reportsUnavailableNext') ||
        !count('balanceUnavailableNext') ||
        !count('htmlNext')
      )
        return error(
          400,
          'INVALID_INPUT_PROVIDED',
          'rateLimitNext, reportsUnavailableNext, balanceUnavailableNext and htmlNext are whole numbers',
          path,
        );
      return ok({ ...state.faults });
    }
    if (method === 'POST' && path === '/__sim/clock') {
      const advanceMs = parse(raw)?.advanceMs;
      if (typeof advanceMs !== 'number' || !Number.isSafeInteger(advanceMs) || advanceMs < 0)
        return error(400, 'INVALID_INPUT_PROVIDED', 'advanceMs (a whole number of milliseconds) is required', path);
      state.clock.advance(advanceMs);
      return ok({ now: new Date(state.now()).toISOString() });
    }
    if (method === 'POST' && path === '/__sim/balance') {
      const body = parse(raw);
      if (typeof body?.balance !== 'string' || !/^\d+(\.\d+)?$/.test(body.balance))
        return error(400, 'INVALID_INPUT_PROVIDED', 'balance (a decimal text) is required', path);
      state.balance = micros(body.balance);
      return ok({ balance: literal(state.balance, 5) });
    }
    if (method === 'POST' && path === '/__sim/tokens/expire') return ok({ expired: state.expireTokens() });
    return notFound(path);
  }

  return {
    url,
    authUrl: url,
    topupsUrl: `${url}/airtime`,
    utilitiesUrl: `${url}/utilities`,
    state,
    clock: state.clock,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
