import { getCountryCallingCode } from 'libphonenumber-js/max';
import {
  BillFetchUnsupportedError,
  BillQuery,
  FailureBasis,
  OutstandingBill,
  ProviderGateway,
  ProviderOrder,
  ProviderOutcome,
  ProviderUnavailableError,
} from '../../../application/ports/provider-gateway.port';
import { CORRIDORS, Corridor } from '../../../domain/corridor/corridor';
import { Currency } from '../../../domain/money/currency';
import { OrderProduct } from '../../../domain/wallet/order-product';
import { ReloadlyApiClient, SendAnswer, UpstreamOperator, UpstreamPayment, UpstreamTopup } from './reloadly-api';
import { ReloadlyFloat } from './reloadly-float';
import { UpstreamVerdict, verdictOfPayment, verdictOfRefusal, verdictOfTopup } from './reloadly-outcomes';
import { dividedBy, scaled, unscaled } from './upstream-decimal';

/** How long after a "still processing" answer the order is looked up again. */
export const RELOADLY_POLL_AFTER_MS = 30_000;
const OPERATOR_CACHE_MS = 60 * 60 * 1000;

type TopupProduct = Extract<OrderProduct, { kind: 'topup' }>;
type BillProduct = Extract<OrderProduct, { kind: 'bill_payment' }>;

/**
 * The live provider over Reloadly's airtime and utilities APIs. The order id is sent as the
 * topup's `customIdentifier` and the payment's `referenceId`, and is the only identifier an order
 * is ever sent under: a retried submission looks the order up before sending it again, and a
 * repeat that reaches Reloadly all the same is refused there and answered by the look-up.
 * A failure is answered only when Reloadly refused definitively and no transaction exists under
 * the order id; anything else is looked up until Reloadly gives a definitive answer.
 */
export class ReloadlyProvider implements ProviderGateway {
  private readonly operators = new Map<number, { operator: UpstreamOperator | null; until: number }>();

  constructor(
    private readonly api: ReloadlyApiClient,
    private readonly float: ReloadlyFloat,
  ) {}

  async submit(order: ProviderOrder, _now: Date, signal?: AbortSignal): Promise<ProviderOutcome> {
    // A retried submission may have reached Reloadly already: what it has under the order id decides, without sending again.
    const earlier = order.resubmission ? await this.lookUp(order, signal) : null;
    if (earlier) return earlier;
    return order.product.kind === 'topup'
      ? this.submitTopup(order, order.product, signal)
      : this.submitPayment(order, order.product, signal);
  }

  async poll(order: ProviderOrder, _now: Date, signal?: AbortSignal): Promise<ProviderOutcome> {
    const found = await this.lookUp(order, signal);
    // Not (yet) in the provider's records: still unknown, asked again later (held at the stuck-order limit).
    return found ?? { status: 'pending', providerReference: null, pollAfterMs: RELOADLY_POLL_AFTER_MS };
  }

  async fetchBill(request: BillQuery): Promise<OutstandingBill | null> {
    throw new BillFetchUnsupportedError(
      `biller ${request.billerId} is served by reloadly, whose utilities API cannot fetch outstanding bills`,
    );
  }

  private async submitTopup(
    order: ProviderOrder,
    product: TopupProduct,
    signal?: AbortSignal,
  ): Promise<ProviderOutcome> {
    const upstreamId = upstreamIdOf(order);
    if (upstreamId === null)
      return this.failUnsent(order, `no reloadly route for operator ${product.operatorId}`, 'not_sent', signal);
    // The operator's entry, when Reloadly gives it, tells whether it takes local amounts and at what rate;
    // without it the order is sent all the same and Reloadly decides.
    const operator = await this.operator(upstreamId, signal);
    if (
      operator &&
      (!operator.supportsLocalAmounts ||
        (operator.destinationCurrencyCode !== null && operator.destinationCurrencyCode !== order.currency))
    ) {
      return this.failUnsent(
        order,
        `reloadly operator ${upstreamId} does not take amounts in ${order.currency}`,
        'not_sent',
        signal,
      );
    }
    const short = await this.floatShortOf(operator ? costOf(order, operator) : null, signal);
    if (short) return this.failUnsent(order, short, 'not_sent', signal);
    const corridor = corridorOf(order.currency);
    const country = CORRIDORS[corridor].country;
    const answer = await this.api.sendTopup(
      {
        operatorId: upstreamId,
        amount: order.amount,
        useLocalAmount: true,
        customIdentifier: order.orderId,
        recipientPhone: {
          countryCode: country,
          number: product.phone.slice(1 + getCountryCallingCode(country).length),
        },
      },
      signal,
    );
    return this.outcomeOfSend(order, answer, (topup) => this.topupOutcome(topup), signal);
  }

  private async submitPayment(
    order: ProviderOrder,
    product: BillProduct,
    signal?: AbortSignal,
  ): Promise<ProviderOutcome> {
    const upstreamId = upstreamIdOf(order);
    if (upstreamId === null)
      return this.failUnsent(order, `no reloadly route for biller ${product.billerId}`, 'not_sent', signal);
    // A bill is paid in the biller's local currency; the float is checked when it is held in that currency.
    const short = await this.floatShortOf({ amount: scaled(order.amount), currency: order.currency }, signal);
    if (short) return this.failUnsent(order, short, 'not_sent', signal);
    const answer = await this.api.payBill(
      {
        billerId: upstreamId,
        subscriberAccountNumber: product.consumerNumber,
        amount: order.amount,
        useLocalAmount: true,
        referenceId: order.orderId,
      },
      signal,
    );
    return this.outcomeOfSend(order, answer, (payment) => this.paymentOutcome(payment), signal);
  }

  private async outcomeOfSend<T extends UpstreamTopup | UpstreamPayment>(
    order: ProviderOrder,
    answer: SendAnswer<T>,
    outcomeOf: (transaction: T) => ProviderOutcome,
    signal?: AbortSignal,
  ): Promise<ProviderOutcome> {
    if (answer.kind === 'accepted') {
      this.float.observe(answer.transaction.newBalance);
      return outcomeOf(answer.transaction);
    }
    const refusal = `reloadly refused the order: HTTP ${answer.httpStatus}${answer.errorCode ? ` ${answer.errorCode}` : ''}${answer.message ? ` (${answer.message})` : ''}`;
    if (verdictOfRefusal(answer.httpStatus, answer.errorCode) === 'failed')
      return this.failUnsent(order, refusal, 'refused', signal);
    // Unknown (5xx, "cannot be processed at the moment", a repeated order id, anything unlisted): what the provider has decides.
    const found = await this.lookUp(order, signal);
    if (found) return found;
    throw new ProviderUnavailableError(
      `${refusal}; the outcome is unknown and no transaction is recorded under ${order.orderId} yet, so the order is asked about again`,
    );
  }

  /**
   * A failure before or without sending: answered only once no transaction exists under the order
   * id (an earlier attempt may have been sent, and its outcome is the order's).
   */
  private async failUnsent(
    order: ProviderOrder,
    reason: string,
    basis: Extract<FailureBasis, 'not_sent' | 'refused'>,
    signal?: AbortSignal,
  ): Promise<ProviderOutcome> {
    return (await this.lookUp(order, signal)) ?? { status: 'failed', reason, basis };
  }

  /**
   * The order's outcome at the provider, or null when the provider has no transaction under the
   * order id: by Reloadly's transaction id when an earlier answer gave one (the status
   * endpoint), otherwise (or when that finds nothing) by the order id.
   */
  private async lookUp(order: ProviderOrder, signal?: AbortSignal): Promise<ProviderOutcome | null> {
    const reference = order.providerReference ?? null;
    if (order.product.kind === 'topup') {
      const topup =
        (reference ? await this.api.topupByTransactionId(reference, signal) : null) ??
        (await this.api.topupByCustomIdentifier(order.orderId, signal));
      return topup ? this.topupOutcome(topup) : null;
    }
    const payment =
      (reference ? await this.api.paymentById(reference, signal) : null) ??
      (await this.api.paymentByReferenceId(order.orderId, signal));
    return payment ? this.paymentOutcome(payment) : null;
  }

  private topupOutcome(topup: UpstreamTopup): ProviderOutcome {
    return outcomeOf(
      verdictOfTopup(topup),
      topup.transactionId,
      topup.operatorTransactionId || topup.transactionId,
      `reloadly topup ${topup.transactionId} ${topup.status}`,
    );
  }

  private paymentOutcome(payment: UpstreamPayment): ProviderOutcome {
    const detail = payment.message ? ` (${payment.code ?? ''} ${payment.message})` : '';
    return outcomeOf(
      verdictOfPayment(payment),
      payment.id,
      payment.id,
      `reloadly payment ${payment.id} ${payment.status}${detail}`,
    );
  }

  /**
   * Why the float cannot cover a cost, or null when it can, when the cost is not in the float's
   * currency, or when the balance cannot be read just now (Reloadly then refuses an order it
   * cannot cover with INSUFFICIENT_BALANCE, a definitive refusal: nothing is taken).
   */
  private async floatShortOf(
    cost: { amount: bigint; currency: string } | null,
    signal?: AbortSignal,
  ): Promise<string | null> {
    if (!cost) return null;
    const reading = await this.float.readOrNull(signal);
    if (!reading) return null;
    // A cost in another currency than the float's cannot be compared here; Reloadly refuses it (INSUFFICIENT_BALANCE) if need be.
    if (cost.currency !== reading.currencyCode || scaled(reading.balance) >= cost.amount) return null;
    return `the provider float (${reading.balance} ${reading.currencyCode}) cannot cover the order (about ${unscaled(cost.amount)} ${reading.currencyCode}); it was not sent`;
  }

  /** The operator's entry (cached for an hour), or null when Reloadly does not give it just now. */
  private async operator(upstreamId: number, signal?: AbortSignal): Promise<UpstreamOperator | null> {
    const cached = this.operators.get(upstreamId);
    if (cached && Date.now() < cached.until) return cached.operator;
    let operator: UpstreamOperator | null;
    try {
      operator = await this.api.operatorById(upstreamId, signal);
    } catch (error) {
      if (error instanceof ProviderUnavailableError && !signal?.aborted) return null;
      throw error;
    }
    if (operator) this.operators.set(upstreamId, { operator, until: Date.now() + OPERATOR_CACHE_MS });
    return operator;
  }
}

function outcomeOf(
  verdict: UpstreamVerdict,
  transactionId: string,
  operatorRef: string,
  reason: string,
): ProviderOutcome {
  switch (verdict) {
    case 'succeeded':
      return { status: 'succeeded', operatorRef };
    case 'failed':
      return { status: 'failed', reason, basis: 'provider_record' };
    case 'processing':
    case 'unknown':
      return { status: 'pending', providerReference: transactionId, pollAfterMs: RELOADLY_POLL_AFTER_MS };
  }
}

/** What a topup costs in the account's currency: the local amount at the operator's rate; null when that cannot be told. */
function costOf(order: ProviderOrder, operator: UpstreamOperator): { amount: bigint; currency: string } | null {
  if (operator.senderCurrencyCode === order.currency) return { amount: scaled(order.amount), currency: order.currency };
  if (operator.fxRate && operator.senderCurrencyCode)
    return { amount: dividedBy(order.amount, operator.fxRate), currency: operator.senderCurrencyCode };
  return null;
}

/** The provider's operator or biller id, from the route the order was placed with (Reloadly's ids are integers). */
function upstreamIdOf(order: ProviderOrder): number | null {
  const id = order.route?.provider === 'reloadly' ? order.route.upstreamId : null;
  return id !== null && /^[1-9][0-9]{0,15}$/.test(id) ? Number(id) : null;
}

function corridorOf(currency: Currency): Corridor {
  const corridor = (Object.keys(CORRIDORS) as Corridor[]).find((code) => CORRIDORS[code].currency === currency);
  if (!corridor) throw new Error(`no corridor has the currency ${currency}`);
  return corridor;
}
