import { createHash } from 'node:crypto';
import { SIM_BILLERS, SIM_OPERATORS, SimBiller, SimOperator } from './sim-catalog';
import { Answer, Json, dateOf, error, parse, stamp } from './sim-http';
import { amountOf, divide, micros } from './sim-money';
import { SimScenario, scenarioOf } from './sim-scenarios';
import { SimApi, SimState, SimStatus, SimTransaction } from './sim-state';
import { paymentJson, topupJson } from './sim-json';

export interface SimTimings {
  settleAfterMs: number;
  slowMs: number;
  hangMs: number;
}

/** Taking topups and payments: checks, repeated identifiers, scenarios, the balance and the record. */
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
        return { product: operator, localAmount, cost };
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
        return {
          product: biller,
          localAmount: local ? amount : (amount * micros(rate)) / micros('1'),
          cost: local ? divide(amount, micros(rate)) : amount,
        };
      },
      (transaction) => paymentJson(transaction, this.settings.settleAfterMs),
    );
  }

  /** The part topups and payments share: repeated references, scenarios, the balance, the record. */
  private submitted(
    api: SimApi,
    reference: string | null,
    target: string,
    check: () => Answer | { product: SimOperator | SimBiller; localAmount: bigint; cost: bigint },
    json: (transaction: SimTransaction) => Json,
  ): Answer {
    const path = api === 'airtime' ? '/airtime/topups' : '/utilities/pay';
    const answer = ((): Answer & { transactionId?: number } => {
      if (reference !== null && this.state.byReference(api, reference)) {
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
      if (scenario === 'refused')
        return error(
          400,
          api === 'airtime' ? 'TOPUP_TRANSACTION_FAILED' : 'INVALID_AMOUNT',
          'The transaction was declined',
          path,
        );
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
      const transaction = this.record(
        api,
        reference,
        target,
        scenario,
        checked.product,
        checked.localAmount,
        checked.cost,
      );
      const answered: Answer = { status: 200, body: json(transaction) };
      if (scenario === 'slow_success') answered.delayMs = this.settings.slowMs;
      if (scenario === 'timeout_then_success' || scenario === 'timeout_then_failure')
        answered.hangMs = this.settings.hangMs;
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
      at: new Date().toISOString(),
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
    product: SimOperator | SimBiller,
    localAmount: bigint,
    cost: bigint,
  ): SimTransaction {
    const id = this.state.newTransactionId();
    const [status, finalStatus] = statusesOf(scenario);
    this.state.balance -= cost;
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
      operatorTransactionId: `OP${createHash('sha256').update(`${this.state.seed}:${id}`).digest('hex').slice(0, 12).toUpperCase()}`,
      balanceAfter: this.state.balance,
    };
    if (status === 'FAILED') this.state.balance += cost;
    this.state.transactions.push(transaction);
    return transaction;
  }

  /** A PROCESSING transaction shows its final status once settle-after has passed. */
  settle(transaction: SimTransaction): void {
    if (
      transaction.status !== 'PROCESSING' ||
      !transaction.finalStatus ||
      Date.now() < transaction.createdAt + this.settings.settleAfterMs
    )
      return;
    transaction.status = transaction.finalStatus;
    if (transaction.status === 'FAILED' || transaction.status === 'REFUNDED') this.state.balance += transaction.cost;
  }

  report(api: SimApi, query: URLSearchParams, referenceName: string): SimTransaction[] {
    const reference = query.get(referenceName);
    const from = dateOf(query.get('startDate'));
    const to = dateOf(query.get('endDate'));
    return this.state.transactions.filter((transaction) => {
      if (transaction.api !== api || (reference !== null && transaction.reference !== reference)) return false;
      if ((from !== null && transaction.createdAt < from) || (to !== null && transaction.createdAt > to)) return false;
      this.settle(transaction);
      return true;
    });
  }
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
