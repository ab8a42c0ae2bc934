import { createHash } from 'node:crypto';
import { SIM_BILLERS, SIM_OPERATORS, SimBiller, SimOperator } from './sim-catalog';
import { Answer, Json, error, htmlPage, parse, stamp } from './sim-http';
import { zonedInstant } from './sim-time';
import { amountOf, divide, micros } from './sim-money';
import { SimScenario, scenarioOf } from './sim-scenarios';
import { SimApi, SimState, SimStatus, SimTransaction } from './sim-state';
import { paymentJson, topupJson } from './sim-json';

export interface SimTimings {
  settleAfterMs: number;
  /** How long the long-processing scenarios (0017-0019) stay PROCESSING. */
  longSettleAfterMs: number;
  /** How long after its status a report-lag topup (0016) shows in the reports. */
  reportLagMs: number;
  slowMs: number;
  hangMs: number;
  /** How long an attempt in flight (0012, 0015) stays out of every look-up. */
  invisibleMs: number;
  /** Reloadly's two-minute rule: a number recharged this recently is refused (0: no rule). */
  recentRechargeMs: number;
  /** The Retry-After of a 429, in seconds. */
  retryAfterSeconds: number;
  /** Retry-After as an HTTP date rather than seconds. */
  retryAfterAsDate: boolean;
  /** A topup's `requestedAmount`: the cost in the account's currency (Reloadly's reference), or the local amount asked. */
  requestedAmountIn: 'account' | 'local';
}

/** What a checked order asks: the product, its local amount, the cost, and what the answers call requested. */
interface Checked {
  product: SimOperator | SimBiller;
  localAmount: bigint;
  cost: bigint;
  requested: { amount: bigint; currency: string };
}

/**
 * Taking topups and payments: checks, repeated identifiers, the two-minute rule, scenarios, the
 * balance and the record. A repeated topup `customIdentifier` is refused, as Reloadly's docs say
 * it cannot be reused — but only when the first transaction is visible (one still in flight is
 * not checked against). A repeated payment `referenceId` is not refused at all: Reloadly documents
 * no such refusal, so the simulator pays it again.
 */
export class SimOrders {
  constructor(
    private readonly state: SimState,
    private readonly settings: SimTimings,
  ) {}

  sendTopup(raw: string, path: string): Answer {
    const body = parse(raw);
    const phone = body?.recipientPhone as Record<string, unknown> | undefined;
    const amount = amountOf(body?.amount);
    const reference = typeof body?.customIdentifier === 'string' ? body.customIdentifier : null;
    if (
      !body ||
      typeof body.operatorId !== 'number' ||
      !amount ||
      !phone ||
      typeof phone.countryCode !== 'string' ||
      typeof phone.number !== 'string'
    ) {
      return error(
        400,
        'INVALID_INPUT_PROVIDED',
        'operatorId, amount and recipientPhone {countryCode, number} are required',
        path,
      );
    }
    const operator = SIM_OPERATORS.find((candidate) => candidate.id === body.operatorId);
    const target = phone.number.replace(/^\+/, '');
    return this.submitted(
      'airtime',
      reference,
      target,
      () => {
        if (!operator)
          return error(400, 'OPERATOR_NOT_IN_SERVICE', `operator ${String(body.operatorId)} is not in service`, path);
        if (phone.countryCode !== operator.country)
          return error(
            400,
            'COUNTRY_NOT_SUPPORTED',
            `operator ${operator.id} does not serve ${String(phone.countryCode)}`,
            path,
          );
        if (!/^\d{6,14}$/.test(target))
          return error(400, 'INVALID_RECIPIENT_PHONE', 'Recipient phone number is not valid', path);
        const local = body.useLocalAmount === true;
        if (local && (amount < micros(operator.localMin) || amount > micros(operator.localMax))) {
          return error(
            400,
            'INVALID_AMOUNT_FOR_OPERATOR',
            `The amount must be between ${operator.localMin} and ${operator.localMax} ${operator.currency}`,
            path,
          );
        }
        const localAmount = local ? amount : (amount * micros(operator.fxRate)) / micros('1');
        const cost = local ? divide(amount, micros(operator.fxRate)) : amount;
        const requested =
          local && this.settings.requestedAmountIn === 'local'
            ? { amount, currency: operator.currency }
            : { amount: cost, currency: this.state.currency };
        return { product: operator, localAmount, cost, requested };
      },
      (transaction) => topupJson(this.state, transaction),
    );
  }

  payBill(raw: string, path: string): Answer {
    const body = parse(raw);
    const amount = amountOf(body?.amount);
    const reference = typeof body?.referenceId === 'string' ? body.referenceId : null;
    if (!body || typeof body.billerId !== 'number' || !amount || typeof body.subscriberAccountNumber !== 'string') {
      return error(400, 'INVALID_INPUT_PROVIDED', 'billerId, amount and subscriberAccountNumber are required', path);
    }
    const biller = SIM_BILLERS.find((candidate) => candidate.id === body.billerId);
    const target = body.subscriberAccountNumber;
    return this.submitted(
      'utilities',
      reference,
      target,
      () => {
        if (!biller) return error(404, 'BILLER_NOT_FOUND', `biller ${String(body.billerId)} not found`, path);
        const rate = SIM_OPERATORS.find((operator) => operator.currency === biller.currency)?.fxRate ?? '1';
        const local = body.useLocalAmount === true;
        const cost = local ? divide(amount, micros(rate)) : amount;
        return {
          product: biller,
          localAmount: local ? amount : (amount * micros(rate)) / micros('1'),
          cost,
          requested: { amount: cost, currency: this.state.currency },
        };
      },
      (transaction) => paymentJson(this.state, transaction),
    );
  }

  /** The part topups and payments share: repeated references, scenarios, the balance, the record. */
  private submitted(
    api: SimApi,
    reference: string | null,
    target: string,
    check: () => Answer | Checked,
    json: (transaction: SimTransaction) => Json,
  ): Answer {
    const path = api === 'airtime' ? '/airtime/topups' : '/utilities/pay';
    const now = this.state.now();
    const answer = ((): Answer & { transactionId?: number } => {
      if (api === 'airtime' && reference !== null && this.state.visibleByReference(api, reference, now)) {
        return error(
          409,
          'DUPLICATE_CUSTOM_IDENTIFIER',
          `a transaction with the identifier ${reference} exists already`,
          path,
        );
      }
      const checked = check();
      if ('status' in checked) return checked;
      const scenario = scenarioOf(target);
      const onceKey = `${api}:${reference ?? target}`;
      if (scenario === 'rate_limited' || (scenario === 'rate_limited_once' && !this.state.refusedOnce.has(onceKey))) {
        this.state.refusedOnce.add(onceKey);
        return rateLimited(path, this.settings, now);
      }
      if (api === 'airtime' && this.recentlyRecharged(target, now))
        return error(
          400,
          'PHONE_RECENTLY_RECHARGED',
          'After a given phone number has been topped-up, a delay of 2 minutes has to take place before it can be topped-up again',
          path,
        );
      if (scenario === 'refused')
        return api === 'airtime'
          ? error(400, 'INVALID_RECIPIENT_PHONE', 'Recipient phone number is not valid', path)
          : error(400, 'INVALID_AMOUNT', 'The transaction was declined', path);
      if (
        (scenario === 'unavailable_once' || scenario === 'cannot_process_once') &&
        !this.state.refusedOnce.has(onceKey)
      ) {
        this.state.refusedOnce.add(onceKey);
        return scenario === 'unavailable_once'
          ? { status: 503, body: { timestamp: stamp(), status: 503, error: 'Service Unavailable', path } }
          : error(
              400,
              'TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT',
              'Transaction cannot be processed at the moment, please try again later',
              path,
            );
      }
      if (checked.cost > this.state.balance)
        return error(400, 'INSUFFICIENT_BALANCE', 'Your balance is insufficient for this transaction', path);
      const transaction = this.record(api, reference, target, scenario, checked);
      const answered: Answer = { status: 200, body: json(transaction) };
      if (scenario === 'slow_success') answered.delayMs = this.settings.slowMs;
      if (
        scenario === 'timeout_then_success' ||
        scenario === 'timeout_then_failure' ||
        scenario === 'in_flight_then_success' ||
        scenario === 'report_lag'
      )
        answered.hangMs = this.settings.hangMs;
      if (scenario === 'html_after_recording') return { ...htmlPage(), transactionId: transaction.id };
      if (scenario === 'failed_but_recorded')
        return {
          ...(api === 'airtime'
            ? error(
                400,
                'TOPUP_TRANSACTION_FAILED',
                'Topup transactions may fail for various reasons, contact support for more details',
                path,
              )
            : { status: 500, body: { timestamp: stamp(), status: 500, error: 'Internal Server Error', path } }),
          transactionId: transaction.id,
        };
      if (scenario === 'error_after_recording')
        return {
          status: 500,
          body: { timestamp: stamp(), status: 500, error: 'Internal Server Error', path },
          transactionId: transaction.id,
        };
      return { ...answered, transactionId: transaction.id };
    })();
    const body = typeof answer.body === 'object' && !Array.isArray(answer.body) ? answer.body : {};
    this.state.submissions.push({
      api,
      reference,
      target,
      at: new Date(now).toISOString(),
      answer: answer.hangMs !== undefined ? 0 : answer.status,
      errorCode: typeof body.errorCode === 'string' ? body.errorCode : null,
      transactionId: answer.transactionId ?? null,
    });
    return answer;
  }

  private record(
    api: SimApi,
    reference: string | null,
    target: string,
    scenario: SimScenario,
    { product, localAmount, cost, requested }: Checked,
  ): SimTransaction {
    const id = this.state.newTransactionId();
    const [status, finalStatus] = statusesOf(scenario);
    this.state.balance -= cost;
    const createdAt = this.state.now();
    const inFlight = scenario === 'in_flight_then_success' || scenario === 'failed_but_recorded';
    const long = scenario.startsWith('long_processing_');
    const transaction: SimTransaction = {
      api,
      id,
      reference,
      status,
      finalStatus,
      settlesAt: createdAt + (long ? this.settings.longSettleAfterMs : this.settings.settleAfterMs),
      scenario,
      createdAt,
      visibleAt: createdAt + (inFlight ? this.settings.invisibleMs : 0),
      reportLagMs: scenario === 'report_lag' ? this.settings.reportLagMs : 0,
      productId: product.id,
      productName: product.name,
      country: product.country,
      target,
      localAmount,
      localCurrency: product.currency,
      requested,
      delivered:
        scenario === 'delivered_less'
          ? { amount: (localAmount * 9n) / 10n, currency: product.currency }
          : scenario === 'delivered_in_account_currency'
            ? { amount: cost, currency: this.state.currency }
            : { amount: localAmount, currency: product.currency },
      cost,
      operatorTransactionId: `OP${createHash('sha256').update(`${this.state.seed}:${id}`).digest('hex').slice(0, 12).toUpperCase()}`,
      balanceAfter: this.state.balance,
    };
    if (status === 'FAILED') this.state.balance += cost;
    this.state.transactions.push(transaction);
    return transaction;
  }

  /** Reloadly's two-minute rule: the number was recharged (or is being) within the last two minutes. */
  private recentlyRecharged(target: string, now: number): boolean {
    if (this.settings.recentRechargeMs <= 0) return false;
    return this.state.transactions.some(
      (transaction) =>
        transaction.api === 'airtime' &&
        transaction.target === target &&
        transaction.status !== 'FAILED' &&
        transaction.status !== 'REFUNDED' &&
        now - transaction.createdAt < this.settings.recentRechargeMs,
    );
  }

  /** A transaction a look-up shows now (not one still in flight). */
  visible(transaction: SimTransaction): boolean {
    return transaction.visibleAt <= this.state.now();
  }

  /** A PROCESSING transaction shows its final status once its settling time has come (the simulator's clock). */
  settle(transaction: SimTransaction): void {
    if (transaction.status !== 'PROCESSING' || !transaction.finalStatus || this.state.now() < transaction.settlesAt)
      return;
    transaction.status = transaction.finalStatus;
    if (transaction.status === 'FAILED' || transaction.status === 'REFUNDED') this.state.balance += transaction.cost;
  }

  /** The reported transactions of the range (a report may lag), filtered by our reference when `referenceName` is the query's filter. */
  report(api: SimApi, query: URLSearchParams, referenceName: string | null, zone: string): SimTransaction[] {
    const reference = referenceName === null ? null : query.get(referenceName);
    const from = zonedInstant(query.get('startDate'), zone);
    const to = zonedInstant(query.get('endDate'), zone);
    return this.state.transactions.filter((transaction) => {
      if (transaction.api !== api || !this.state.reported(transaction)) return false;
      if (reference !== null && transaction.reference !== reference) return false;
      if ((from !== null && transaction.createdAt < from) || (to !== null && transaction.createdAt > to)) return false;
      this.settle(transaction);
      return true;
    });
  }
}

/** Reloadly's 429: its error body, with the reset in Retry-After (seconds, or an HTTP date) and X-RateLimit-Reset. */
export function rateLimited(
  path: string,
  { retryAfterSeconds, retryAfterAsDate }: Pick<SimTimings, 'retryAfterSeconds' | 'retryAfterAsDate'>,
  now: number,
): Answer {
  const reset = now + retryAfterSeconds * 1000;
  return {
    ...error(429, 'RATE_LIMIT_REACHED', 'Too many requests. Blocked due to rate limiting.', path),
    headers: {
      'retry-after': retryAfterAsDate ? new Date(reset).toUTCString() : String(retryAfterSeconds),
      'x-ratelimit-reset': String(Math.ceil(reset / 1000)),
    },
  };
}

function statusesOf(scenario: SimScenario): [SimStatus, SimStatus | null] {
  switch (scenario) {
    case 'processing_then_success':
    case 'long_processing_then_success':
      return ['PROCESSING', 'SUCCESSFUL'];
    case 'processing_then_failure':
    case 'long_processing_then_failure':
      return ['PROCESSING', 'FAILED'];
    case 'processing_then_refunded':
    case 'long_processing_then_refunded':
      return ['PROCESSING', 'REFUNDED'];
    case 'processing_forever':
      return ['PROCESSING', null];
    case 'timeout_then_failure':
      return ['FAILED', null];
    default:
      return ['SUCCESSFUL', null];
  }
}
