import { createHash } from 'node:crypto';
import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import { SIM_BILLERS, SIM_OPERATORS, SimBiller, SimOperator } from './sim-catalog';
import { amountOf, divide, literal, micros } from './sim-money';
import { SimScenario, scenarioOf } from './sim-scenarios';
import { SimApi, SimState, SimStatus, SimTransaction } from './sim-state';

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
  /** How late a slow answer (suffix 0006) comes. */
  slowMs?: number;
  /** How long the connection of an order that "times out" (0007, 0008) is held before it is dropped. */
  hangMs?: number;
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
  close(): Promise<void>;
}

type Json = Record<string, unknown> | unknown[];

interface Answer {
  status: number;
  body: Json | string;
  /** Hold the connection this long and then drop it without an answer. */
  hangMs?: number;
  delayMs?: number;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const settings = {
    host: options.host ?? '127.0.0.1',
    seed: options.seed ?? 1,
    tokenTtlMs: (options.tokenTtlSeconds ?? 3600) * 1000,
    settleAfterMs: options.settleAfterMs ?? 30_000,
    slowMs: options.slowMs ?? 3_000,
    hangMs: options.hangMs ?? 120_000,
  };
  const state = new SimState(settings.seed, micros(options.balance ?? '1000.00'), options.currency ?? 'USD');
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
      } catch (error) {
        answer = { status: 500, body: { timestamp: stamp(), status: 500, error: 'Internal Server Error', message: (error as Error).message } };
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
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, settings.host, resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://${settings.host.includes(':') ? `[${settings.host}]` : settings.host}:${port}`;

  function route(request: IncomingMessage, raw: string): Answer {
    const { pathname, searchParams } = new URL(request.url ?? '/', 'http://simulator');
    const method = request.method ?? 'GET';
    if (pathname === '/oauth/token' && method === 'POST') return token(raw);
    if (pathname.startsWith('/__sim/')) return control(method, pathname, raw);
    const api: SimApi | null = pathname.startsWith('/airtime/') ? 'airtime' : pathname.startsWith('/utilities/') ? 'utilities' : null;
    if (!api) return notFound(pathname);
    const path = pathname.slice(api.length + 1);
    const refusal = authorize(request, api, pathname);
    if (refusal) return refusal;
    return api === 'airtime' ? airtime(method, path, searchParams, raw, pathname) : utilities(method, path, searchParams, raw, pathname);
  }

  function token(raw: string): Answer {
    const body = parse(raw);
    if (!body || body.grant_type !== 'client_credentials' || typeof body.client_id !== 'string' || typeof body.client_secret !== 'string') {
      return { status: 400, body: { error: 'invalid_request', error_description: 'client_id, client_secret and grant_type client_credentials are required' } };
    }
    if (options.clientId && options.clientSecret && (body.client_id !== options.clientId || body.client_secret !== options.clientSecret)) {
      return { status: 401, body: { error: 'access_denied', error_description: 'Unauthorized' } };
    }
    const api = audienceApi(body.audience);
    if (!api) return { status: 403, body: { error: 'access_denied', error_description: `unknown audience ${String(body.audience)}` } };
    const scope = api === 'airtime' ? 'send-topups read-operators read-topups-history read-prepaid-balance' : 'utilities';
    return {
      status: 200,
      body: { access_token: state.issueToken(api, settings.tokenTtlMs, Date.now()), scope, expires_in: Math.floor(settings.tokenTtlMs / 1000), token_type: 'Bearer' },
    };
  }

  function authorize(request: IncomingMessage, api: SimApi, path: string): Answer | null {
    const header = request.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? state.tokens.get(header.slice(7)) : undefined;
    if (!token || token.api !== api) return error(401, 'INVALID_TOKEN', 'Full authentication is required to access this resource', path);
    if (token.expiresAt <= Date.now()) return error(401, 'TOKEN_EXPIRED', 'The access token has expired', path);
    return null;
  }

  function airtime(method: string, path: string, query: URLSearchParams, raw: string, fullPath: string): Answer {
    if (method === 'GET' && path === '/accounts/balance') return balance();
    let match = /^\/operators\/countries\/([A-Za-z]{2})$/.exec(path);
    if (method === 'GET' && match) {
      const country = match[1].toUpperCase();
      if (!SIM_OPERATORS.some((operator) => operator.country === country)) return error(404, 'COUNTRY_NOT_SUPPORTED', 'Country not found and/or not currently supported', fullPath);
      return ok(SIM_OPERATORS.filter((operator) => operator.country === country).map(operatorJson));
    }
    match = /^\/operators\/(\d+)$/.exec(path);
    if (method === 'GET' && match) {
      const operator = SIM_OPERATORS.find((candidate) => candidate.id === Number(match![1]));
      return operator ? ok(operatorJson(operator)) : error(404, 'OPERATOR_NOT_FOUND', 'Operator not found', fullPath);
    }
    if (method === 'POST' && path === '/topups') return sendTopup(raw, fullPath);
    match = /^\/topups\/(\d+)\/status$/.exec(path);
    if (method === 'GET' && match) {
      const transaction = state.transactions.find((candidate) => candidate.api === 'airtime' && candidate.id === Number(match![1]));
      if (!transaction) return error(404, 'TRANSACTION_NOT_FOUND', 'Transaction not found', fullPath);
      settle(transaction);
      return ok({ code: null, message: null, status: transaction.status, transaction: topupJson(transaction) });
    }
    if (method === 'GET' && path === '/topups/reports/transactions') {
      return ok(page(report('airtime', query, 'customIdentifier').map(topupJson), query));
    }
    return notFound(fullPath);
  }

  function utilities(method: string, path: string, query: URLSearchParams, raw: string, fullPath: string): Answer {
    if (method === 'GET' && path === '/accounts/balance') return balance();
    if (method === 'GET' && path === '/billers') {
      const country = query.get('countryISOCode')?.toUpperCase();
      const id = query.get('id');
      const billers = SIM_BILLERS.filter((biller) => (!country || biller.country === country) && (!id || biller.id === Number(id)));
      return ok(page(billers.map(billerJson), query));
    }
    if (method === 'POST' && path === '/pay') return payBill(raw, fullPath);
    const match = /^\/transactions\/(\d+)$/.exec(path);
    if (method === 'GET' && match) {
      const transaction = state.transactions.find((candidate) => candidate.api === 'utilities' && candidate.id === Number(match[1]));
      if (!transaction) return error(404, null, 'No message available', fullPath);
      settle(transaction);
      return ok(paymentItem(transaction));
    }
    if (method === 'GET' && path === '/transactions') return ok(page(report('utilities', query, 'referenceId').map(paymentItem), query));
    return notFound(fullPath);
  }

  function sendTopup(raw: string, path: string): Answer {
    const body = parse(raw);
    const phone = body?.recipientPhone as Record<string, unknown> | undefined;
    const amount = amountOf(body?.amount);
    const reference = typeof body?.customIdentifier === 'string' ? body.customIdentifier : null;
    if (!body || typeof body.operatorId !== 'number' || !amount || !phone || typeof phone.countryCode !== 'string' || typeof phone.number !== 'string') {
      return error(400, 'INVALID_INPUT_PROVIDED', 'operatorId, amount and recipientPhone {countryCode, number} are required', path);
    }
    const operator = SIM_OPERATORS.find((candidate) => candidate.id === body.operatorId);
    const target = phone.number.replace(/^\+/, '');
    return submitted('airtime', reference, target, () => {
      if (!operator) return error(400, 'OPERATOR_NOT_IN_SERVICE', `operator ${String(body.operatorId)} is not in service`, path);
      if (phone.countryCode !== operator.country) return error(400, 'COUNTRY_NOT_SUPPORTED', `operator ${operator.id} does not serve ${String(phone.countryCode)}`, path);
      if (!/^\d{6,14}$/.test(target)) return error(400, 'INVALID_RECIPIENT_PHONE', 'Recipient phone number is not valid', path);
      const local = body.useLocalAmount === true;
      if (local && (amount < micros(operator.localMin) || amount > micros(operator.localMax))) {
        return error(400, 'INVALID_AMOUNT_FOR_OPERATOR', `The amount must be between ${operator.localMin} and ${operator.localMax} ${operator.currency}`, path);
      }
      const localAmount = local ? amount : (amount * micros(operator.fxRate)) / micros('1');
      const cost = local ? divide(amount, micros(operator.fxRate)) : amount;
      return { product: operator, localAmount, cost };
    }, (transaction) => topupJson(transaction));
  }

  function payBill(raw: string, path: string): Answer {
    const body = parse(raw);
    const amount = amountOf(body?.amount);
    const reference = typeof body?.referenceId === 'string' ? body.referenceId : null;
    if (!body || typeof body.billerId !== 'number' || !amount || typeof body.subscriberAccountNumber !== 'string') {
      return error(400, 'INVALID_INPUT_PROVIDED', 'billerId, amount and subscriberAccountNumber are required', path);
    }
    const biller = SIM_BILLERS.find((candidate) => candidate.id === body.billerId);
    const target = body.subscriberAccountNumber;
    return submitted('utilities', reference, target, () => {
      if (!biller) return error(404, 'BILLER_NOT_FOUND', `biller ${String(body.billerId)} not found`, path);
      const rate = SIM_OPERATORS.find((operator) => operator.currency === biller.currency)?.fxRate ?? '1';
      const local = body.useLocalAmount === true;
      return { product: biller, localAmount: local ? amount : (amount * micros(rate)) / micros('1'), cost: local ? divide(amount, micros(rate)) : amount };
    }, (transaction) => paymentJson(transaction));
  }

  /** The part topups and payments share: repeated references, scenarios, the balance, the record. */
  function submitted(
    api: SimApi,
    reference: string | null,
    target: string,
    check: () => Answer | { product: SimOperator | SimBiller; localAmount: bigint; cost: bigint },
    json: (transaction: SimTransaction) => Json,
  ): Answer {
    const path = api === 'airtime' ? '/airtime/topups' : '/utilities/pay';
    const answer = ((): Answer & { transactionId?: number } => {
      if (reference !== null && state.byReference(api, reference)) {
        return error(409, 'DUPLICATE_CUSTOM_IDENTIFIER', `a transaction with the identifier ${reference} exists already`, path);
      }
      const checked = check();
      if ('status' in checked) return checked;
      const scenario = scenarioOf(target);
      const onceKey = `${api}:${reference ?? target}`;
      if (scenario === 'refused') return error(400, api === 'airtime' ? 'TOPUP_TRANSACTION_FAILED' : 'INVALID_AMOUNT', 'The transaction was declined', path);
      if ((scenario === 'unavailable_once' || scenario === 'cannot_process_once') && !state.refusedOnce.has(onceKey)) {
        state.refusedOnce.add(onceKey);
        return scenario === 'unavailable_once'
          ? { status: 503, body: { timestamp: stamp(), status: 503, error: 'Service Unavailable', path } }
          : error(400, 'TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT', 'Transaction cannot be processed at the moment, please try again later', path);
      }
      if (checked.cost > state.balance) return error(400, 'INSUFFICIENT_BALANCE', 'Your balance is insufficient for this transaction', path);
      const transaction = record(api, reference, target, scenario, checked.product, checked.localAmount, checked.cost);
      const answered: Answer = { status: 200, body: json(transaction) };
      if (scenario === 'slow_success') answered.delayMs = settings.slowMs;
      if (scenario === 'timeout_then_success' || scenario === 'timeout_then_failure') answered.hangMs = settings.hangMs;
      if (scenario === 'error_after_recording') return { status: 500, body: { timestamp: stamp(), status: 500, error: 'Internal Server Error', path }, transactionId: transaction.id };
      return { ...answered, transactionId: transaction.id };
    })();
    const body = typeof answer.body === 'object' && !Array.isArray(answer.body) ? answer.body : {};
    state.submissions.push({
      api,
      reference,
      target,
      at: new Date().toISOString(),
      answer: answer.hangMs !== undefined ? 0 : answer.status,
      errorCode: typeof body.errorCode === 'string' ? body.errorCode : null,
      transactionId: answer.transactionId ?? null,
    });
    return answer;
  }

  function record(api: SimApi, reference: string | null, target: string, scenario: SimScenario, product: SimOperator | SimBiller, localAmount: bigint, cost: bigint): SimTransaction {
    const id = state.newTransactionId();
    const [status, finalStatus] = statusesOf(scenario);
    state.balance -= cost;
    const transaction: SimTransaction = {
      api,
      id,
      reference,
      status,
      finalStatus,
      scenario,
      createdAt: Date.now(),
      productId: product.id,
      productName: product.name,
      country: product.country,
      target,
      localAmount,
      localCurrency: product.currency,
      cost,
      operatorTransactionId: `OP${createHash('sha256').update(`${state.seed}:${id}`).digest('hex').slice(0, 12).toUpperCase()}`,
      balanceAfter: state.balance,
    };
    if (status === 'FAILED') state.balance += cost;
    state.transactions.push(transaction);
    return transaction;
  }

  /** A PROCESSING transaction shows its final status once settle-after has passed. */
  function settle(transaction: SimTransaction): void {
    if (transaction.status !== 'PROCESSING' || !transaction.finalStatus || Date.now() < transaction.createdAt + settings.settleAfterMs) return;
    transaction.status = transaction.finalStatus;
    if (transaction.status === 'FAILED' || transaction.status === 'REFUNDED') state.balance += transaction.cost;
  }

  function report(api: SimApi, query: URLSearchParams, referenceName: string): SimTransaction[] {
    const reference = query.get(referenceName);
    const from = dateOf(query.get('startDate'));
    const to = dateOf(query.get('endDate'));
    return state.transactions.filter((transaction) => {
      if (transaction.api !== api || (reference !== null && transaction.reference !== reference)) return false;
      if ((from !== null && transaction.createdAt < from) || (to !== null && transaction.createdAt > to)) return false;
      settle(transaction);
      return true;
    });
  }

  function balance(): Answer {
    return ok({ balance: num(literal(state.balance, 5)), currencyCode: state.currency, currencyName: state.currency, updatedAt: stamp() });
  }

  function control(method: string, path: string, raw: string): Answer {
    if (method === 'GET' && path === '/__sim/state') {
      return ok({
        balance: literal(state.balance, 5),
        currency: state.currency,
        tokensIssued: state.tokensIssued,
        submissions: state.submissions,
        transactions: state.transactions.map((transaction) => ({ api: transaction.api, id: transaction.id, reference: transaction.reference, status: transaction.status, target: transaction.target })),
      });
    }
    if (method === 'POST' && path === '/__sim/balance') {
      const body = parse(raw);
      if (typeof body?.balance !== 'string') return error(400, 'INVALID_INPUT_PROVIDED', 'balance (a decimal text) is required', path);
      state.balance = micros(body.balance);
      return ok({ balance: literal(state.balance, 5) });
    }
    if (method === 'POST' && path === '/__sim/tokens/expire') return ok({ expired: state.expireTokens() });
    return notFound(path);
  }

  function topupJson(transaction: SimTransaction): Record<string, unknown> {
    const operator = SIM_OPERATORS.find((candidate) => candidate.id === transaction.productId)!;
    return {
      transactionId: transaction.id,
      status: transaction.status,
      operatorTransactionId: transaction.status === 'SUCCESSFUL' ? transaction.operatorTransactionId : null,
      customIdentifier: transaction.reference,
      recipientPhone: transaction.target,
      recipientEmail: null,
      senderPhone: null,
      countryCode: transaction.country,
      operatorId: transaction.productId,
      operatorName: operator.name,
      discount: 0,
      discountCurrencyCode: state.currency,
      requestedAmount: num(literal(transaction.localAmount)),
      requestedAmountCurrencyCode: transaction.localCurrency,
      deliveredAmount: num(literal(transaction.localAmount)),
      deliveredAmountCurrencyCode: transaction.localCurrency,
      transactionDate: stamp(transaction.createdAt),
      pinDetail: null,
      balanceInfo: { oldBalance: num(literal(transaction.balanceAfter + transaction.cost, 5)), newBalance: num(literal(transaction.balanceAfter, 5)), currencyCode: state.currency, currencyName: state.currency, updatedAt: stamp(transaction.createdAt) },
    };
  }

  function paymentJson(transaction: SimTransaction): Record<string, unknown> {
    const [code, message] = paymentMessage(transaction.status);
    return { id: transaction.id, status: transaction.status, referenceId: transaction.reference, code, message, submittedAt: stamp(transaction.createdAt), finalStatusAvailabilityAt: stamp(transaction.createdAt + settings.settleAfterMs) };
  }

  function paymentItem(transaction: SimTransaction): Record<string, unknown> {
    const [code, message] = paymentMessage(transaction.status);
    const biller = SIM_BILLERS.find((candidate) => candidate.id === transaction.productId)!;
    return {
      code,
      message,
      transaction: {
        id: transaction.id,
        status: transaction.status,
        referenceId: transaction.reference,
        amount: num(literal(transaction.localAmount)),
        amountCurrencyCode: transaction.localCurrency,
        deliveryAmount: num(literal(transaction.localAmount)),
        deliveryAmountCurrencyCode: transaction.localCurrency,
        fee: 0,
        feeCurrencyCode: state.currency,
        discount: 0,
        discountCurrencyCode: state.currency,
        submittedAt: stamp(transaction.createdAt),
        balanceInfo: { oldBalance: num(literal(transaction.balanceAfter + transaction.cost, 5)), newBalance: num(literal(transaction.balanceAfter, 5)), cost: num(literal(transaction.cost, 5)), currencyCode: state.currency, currencyName: state.currency, updatedAt: stamp(transaction.createdAt) },
        billDetails: { type: biller.type, billerId: biller.id, billerName: biller.name, billerCountryCode: biller.country, serviceType: biller.serviceType, completedAt: transaction.status === 'PROCESSING' ? null : stamp(transaction.createdAt), subscriberDetails: { accountNumber: transaction.target } },
      },
    };
  }

  return {
    url,
    authUrl: url,
    topupsUrl: `${url}/airtime`,
    utilitiesUrl: `${url}/utilities`,
    state,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function statusesOf(scenario: SimScenario): [SimStatus, SimStatus | null] {
  switch (scenario) {
    case 'processing_then_success':
      return ['PROCESSING', 'SUCCESSFUL'];
    case 'processing_then_failure':
      return ['PROCESSING', 'FAILED'];
    case 'processing_forever':
      return ['PROCESSING', null];
    case 'timeout_then_failure':
      return ['FAILED', null];
    default:
      return ['SUCCESSFUL', null];
  }
}

function paymentMessage(status: SimStatus): [string, string] {
  if (status === 'SUCCESSFUL') return ['PAYMENT_PROCESSED_SUCCESSFULLY', 'The payment was processed successfully'];
  if (status === 'PROCESSING') return ['PAYMENT_PROCESSING_IN_PROGRESS', 'The payment is being processed, status will be updated when biller processes the payment.'];
  return ['PAYMENT_FAILED', 'The payment could not be processed by the biller'];
}

function operatorJson(operator: SimOperator): Record<string, unknown> {
  return {
    id: operator.id,
    operatorId: operator.id,
    name: operator.name,
    bundle: false,
    data: false,
    pin: false,
    supportsLocalAmounts: true,
    denominationType: 'RANGE',
    senderCurrencyCode: 'USD',
    destinationCurrencyCode: operator.currency,
    minAmount: num(literal(divide(micros(operator.localMin), micros(operator.fxRate)))),
    maxAmount: num(literal(divide(micros(operator.localMax), micros(operator.fxRate)))),
    localMinAmount: num(operator.localMin),
    localMaxAmount: num(operator.localMax),
    country: { isoName: operator.country, name: operator.countryName },
    fx: { rate: num(operator.fxRate), currencyCode: operator.currency },
    fixedAmounts: [],
    localFixedAmounts: [],
  };
}

function billerJson(biller: SimBiller): Record<string, unknown> {
  return {
    id: biller.id,
    name: biller.name,
    countryIsoCode: biller.country,
    type: biller.type,
    serviceType: biller.serviceType,
    localAmountSupported: true,
    localTransactionCurrencyCode: biller.currency,
    minLocalTransactionAmount: 1,
    maxLocalTransactionAmount: 100000,
    localTransactionFee: 0,
    localTransactionFeeCurrencyCode: biller.currency,
  };
}

/** A JSON number from a decimal literal (JSON.parse of the literal is exactly the number a client reads). */
const num = (text: string): number => JSON.parse(text) as number;

function audienceApi(audience: unknown): SimApi | null {
  if (typeof audience !== 'string') return null;
  try {
    const url = new URL(audience);
    if (url.pathname.replace(/\/+$/, '').endsWith('/airtime') || url.hostname.startsWith('topups')) return 'airtime';
    if (url.pathname.replace(/\/+$/, '').endsWith('/utilities') || url.hostname.startsWith('utilities')) return 'utilities';
  } catch {
    return null;
  }
  return null;
}

function page(items: unknown[], query: URLSearchParams): Json {
  const size = Math.max(Number(query.get('size') ?? 200) || 200, 1);
  const number = Math.max(Number(query.get('page') ?? 1) || 1, 1);
  const content = items.slice((number - 1) * size, number * size);
  return { content, totalElements: items.length, totalPages: Math.ceil(items.length / size), size, number, numberOfElements: content.length };
}

/** "yyyy-MM-dd HH:mm:ss" in UTC. */
function stamp(at: number = Date.now()): string {
  return new Date(at).toISOString().slice(0, 19).replace('T', ' ');
}

function dateOf(text: string | null): number | null {
  if (!text) return null;
  const at = Date.parse(`${text.replace(' ', 'T')}Z`);
  return Number.isNaN(at) ? null : at;
}

const ok = (body: Json): Answer => ({ status: 200, body });
const error = (status: number, errorCode: string | null, message: string, path: string): Answer => ({ status, body: { timeStamp: stamp(), message, path, errorCode, infoLink: null, details: [] } });
const notFound = (path: string): Answer => ({ status: 404, body: { timeStamp: stamp(), status: 404, error: 'Not Found', message: 'No message available', path } });

function parse(raw: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', () => resolve(''));
  });
}

function reply(response: ServerResponse, answer: Answer): void {
  if (response.destroyed) return;
  const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
  response.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}
