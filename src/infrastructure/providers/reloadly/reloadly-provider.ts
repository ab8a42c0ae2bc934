import { getCountryCallingCode } from 'libphonenumber-js/max';
import {
  BillFetchUnsupportedError,
  BillQuery,
  OutstandingBill,
  ProviderGateway,
  ProviderNotSentError,
  ProviderOrder,
  ProviderOutcome,
  ProviderUnavailableError,
} from '../../../application/ports/provider-gateway.port';
import { CORRIDORS, Corridor } from '../../../domain/corridor/corridor';
import { Currency } from '../../../domain/money/currency';
import { OrderProduct } from '../../../domain/wallet/order-product';
import {
  ReloadlyApiClient,
  SendAnswer,
  TimeRange,
  UpstreamOperator,
  UpstreamPayment,
  UpstreamTopup,
} from './reloadly-api';
import { ReloadlyFloat } from './reloadly-float';
import { UpstreamVerdict, verdictOfPayment, verdictOfRefusal, verdictOfTopup } from './reloadly-outcomes';
import { dividedBy, scaled, unscaled } from './upstream-decimal';

/** How long after a "still processing" answer, or a look-up that found nothing yet, the order is looked up again. */
export const RELOADLY_POLL_AFTER_MS = 30_000;
/**
 * Reloadly's look-up window: how long after the first attempt in doubt an attempt it received may
 * still be missing from its records (docs/decisions/0041-reloadly-lookup-window.md). Only after it
 * has passed may its report confirm that the order never arrived.
 */
export const RELOADLY_LOOKUP_WINDOW_MS = 10 * 60_000;
/** The report read to confirm absence reaches this far before the order was placed and after now (any time zone, any clock skew). */
const ABSENCE_MARGIN_MS = 24 * 60 * 60_000;
const OPERATOR_CACHE_MS = 60 * 60 * 1000;
/** How long after placement Reloadly may still give an order's final word (docs/decisions/0117-held-orders-followed.md). */
export const RELOADLY_HORIZON_MS: Readonly<Record<OrderProduct['kind'], number>> = {
  topup: 24 * 60 * 60_000,
  bill_payment: 48 * 60 * 60_000,
};

/**
 * Whether an order whose earlier attempt may have reached Reloadly is ever sent again, per
 * product: never. Reloadly documents no idempotent repeat of a `customIdentifier` or a
 * `referenceId` (docs/decisions/0040-resend-or-look-up.md); such an order is only looked up,
 * until Reloadly's record decides it, its
 * report confirms absence after the look-up window, or it is held for an operator.
 */
export const RESEND_AFTER_UNKNOWN: Readonly<Record<OrderProduct['kind'], boolean>> = {
  topup: false,
  bill_payment: false,
};

type TopupProduct = Extract<OrderProduct, { kind: 'topup' }>;
type BillProduct = Extract<OrderProduct, { kind: 'bill_payment' }>;

/**
 * The live provider over Reloadly's airtime and utilities APIs. The order id is sent as the
 * topup's `customIdentifier` and the payment's `referenceId`, and is the only identifier an order
 * is ever sent under. An order is sent once: after an attempt whose outcome is unknown it is only
 * looked up, by Reloadly's transaction id when an answer gave one and by the order id otherwise.
 * A failure is answered when Reloadly refused the attempt definitively (an order not in doubt),
 * when Reloadly's record of the order says FAILED or REFUNDED, or when its report confirms, after
 * the look-up window, that no transaction exists under the order id.
 */
export class ReloadlyProvider implements ProviderGateway {
  private readonly operators = new Map<number, { operator: UpstreamOperator | null; until: number }>();

  constructor(
    private readonly api: ReloadlyApiClient,
    private readonly float: ReloadlyFloat,
  ) {}

  async submit(order: ProviderOrder, now: Date, signal?: AbortSignal): Promise<ProviderOutcome> {
    const inDoubt = order.resubmission === true || (order.inDoubtSince ?? null) !== null;
    if (inDoubt && !RESEND_AFTER_UNKNOWN[order.product.kind]) return this.follow(order, now, signal);
    return order.product.kind === 'topup'
      ? this.submitTopup(order, order.product, signal)
      : this.submitPayment(order, order.product, signal);
  }

  /** A look-up: never sends anything. */
  async poll(order: ProviderOrder, now: Date, signal?: AbortSignal): Promise<ProviderOutcome> {
    return this.follow(order, now, signal);
  }

  deliveryHorizonMs(kind: OrderProduct['kind']): number {
    return RELOADLY_HORIZON_MS[kind];
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
    if (upstreamId === null) return notSent(`no reloadly route for operator ${product.operatorId}`);
    // The operator's entry, when Reloadly gives it, tells whether it takes local amounts and at what rate;
    // without it the order is sent all the same and Reloadly decides.
    const operator = await this.operator(upstreamId, signal);
    if (
      operator &&
      (!operator.supportsLocalAmounts ||
        (operator.destinationCurrencyCode !== null && operator.destinationCurrencyCode !== order.currency))
    ) {
      return notSent(`reloadly operator ${upstreamId} does not take amounts in ${order.currency}`);
    }
    const short = await this.floatShortOf(operator ? costOf(order, operator) : null, signal);
    if (short) return notSent(short);
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
    return sent(() => this.outcomeOfSend(order, answer, (topup) => this.topupOutcome(order, topup), signal));
  }

  private async submitPayment(
    order: ProviderOrder,
    product: BillProduct,
    signal?: AbortSignal,
  ): Promise<ProviderOutcome> {
    const upstreamId = upstreamIdOf(order);
    if (upstreamId === null) return notSent(`no reloadly route for biller ${product.billerId}`);
    // A bill is paid in the biller's local currency; the float is checked when it is held in that currency.
    const short = await this.floatShortOf({ amount: scaled(order.amount), currency: order.currency }, signal);
    if (short) return notSent(short);
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
    return sent(() => this.outcomeOfSend(order, answer, (payment) => this.paymentOutcome(order, payment), signal));
  }

  /**
   * The answer to a send. A definitive refusal fails this attempt (`refused`); anything else that
   * is not the transaction (5xx, 429, "cannot be processed at the moment", TOPUP_TRANSACTION_FAILED,
   * an unlisted code) leaves the outcome unknown: what Reloadly has under the order id decides, and
   * if it has nothing yet the call fails as unanswered, which puts the order in doubt.
   */
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
      return { status: 'failed', reason: refusal, basis: 'refused' };
    let found: ProviderOutcome | null;
    try {
      found = await this.lookUp(order, null, signal);
    } catch (error) {
      throw new ProviderUnavailableError(
        `${refusal}; the outcome is unknown and the look-up under ${order.orderId} failed too (${(error as Error).message}); the order is looked up again later and never sent again`,
      );
    }
    if (found) return found;
    throw new ProviderUnavailableError(
      `${refusal}; the outcome is unknown and no transaction is recorded under ${order.orderId} yet, so the order is looked up again and never sent again`,
    );
  }

  /**
   * Following an order: what Reloadly has under its transaction id or the order id decides. When
   * it has nothing, the order stays unknown until the look-up window after the first attempt in
   * doubt has passed; then a report covering the order's whole life confirms the absence, and the
   * order fails (`absence_confirmed`). An order Reloadly acknowledged (a transaction id is known)
   * is never taken as absent: its look-ups go on until it is decided or held.
   */
  private async follow(order: ProviderOrder, now: Date, signal?: AbortSignal): Promise<ProviderOutcome> {
    const since = Date.parse(order.inDoubtSince ?? order.placedAt);
    const windowPassed = !order.providerReference && now.getTime() >= since + RELOADLY_LOOKUP_WINDOW_MS;
    const range: TimeRange | null = windowPassed
      ? {
          from: new Date(Date.parse(order.placedAt) - ABSENCE_MARGIN_MS),
          to: new Date(now.getTime() + ABSENCE_MARGIN_MS),
        }
      : null;
    const found = await this.lookUp(order, range, signal);
    if (found) return found;
    if (range) {
      const report = order.product.kind === 'topup' ? 'topup report' : 'utility transactions';
      return {
        status: 'failed',
        reason: `reloadly has no transaction under ${order.orderId}: its ${report} from ${range.from.toISOString()} to ${range.to.toISOString()} (read in ${this.api.reportTimeZone}, every page) shows none, ${Math.round((now.getTime() - since) / 60_000)} min after the attempt in doubt`,
        basis: 'absence_confirmed',
      };
    }
    return {
      status: 'unknown',
      reason: order.providerReference
        ? `reloadly does not show transaction ${order.providerReference} (${order.orderId}) just now`
        : `reloadly has no transaction under ${order.orderId} yet`,
      retryAfterMs: RELOADLY_POLL_AFTER_MS,
    };
  }

  /**
   * The order's outcome at the provider, or null when the provider has no transaction under the
   * order id (in the range, when one is given): by Reloadly's transaction id when an earlier answer
   * gave one (the status endpoint; a 404 there means "not there yet", never a failure), otherwise
   * (or when that finds nothing) by the order id in the report.
   */
  private async lookUp(
    order: ProviderOrder,
    range: TimeRange | null,
    signal?: AbortSignal,
  ): Promise<ProviderOutcome | null> {
    const reference = order.providerReference ?? null;
    if (order.product.kind === 'topup') {
      const topup =
        (reference ? await this.api.topupByTransactionId(reference, signal) : null) ??
        (await this.api.topupByCustomIdentifier(order.orderId, signal, range ?? undefined));
      return topup ? this.topupOutcome(order, topup) : null;
    }
    const payment =
      (reference ? await this.api.paymentById(reference, signal) : null) ??
      (await this.api.paymentByReferenceId(order.orderId, signal, range ?? undefined));
    return payment ? this.paymentOutcome(order, payment) : null;
  }

  private topupOutcome(order: ProviderOrder, topup: UpstreamTopup): ProviderOutcome {
    const detail = topup.code || topup.message ? ` (${[topup.code, topup.message].filter(Boolean).join(' ')})` : '';
    return outcomeOf(
      verdictOfTopup(topup),
      topup.transactionId,
      topup.operatorTransactionId || topup.transactionId || `reloadly-${order.orderId}`,
      `reloadly topup ${topup.transactionId ?? `under ${order.orderId}`} ${topup.status}${detail}`,
    );
  }

  private paymentOutcome(order: ProviderOrder, payment: UpstreamPayment): ProviderOutcome {
    const detail = payment.message ? ` (${payment.code ?? ''} ${payment.message})` : '';
    return outcomeOf(
      verdictOfPayment(payment),
      payment.id,
      payment.id ?? `reloadly-${order.orderId}`,
      `reloadly payment ${payment.id ?? `under ${order.orderId}`} ${payment.status}${detail}`,
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

/** A failure of an order that was not sent: our own check stopped it. */
const notSent = (reason: string): ProviderOutcome => ({ status: 'failed', reason, basis: 'not_sent' });

/**
 * What follows a send that went out: nothing after it may say "not sent" (a look-up refused by
 * the rate limit, say), since the send itself may have reached Reloadly.
 */
async function sent(work: () => Promise<ProviderOutcome>): Promise<ProviderOutcome> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ProviderNotSentError)
      throw new ProviderUnavailableError(`${error.message}; the order itself was sent, its outcome is unknown`);
    throw error;
  }
}

function outcomeOf(
  verdict: UpstreamVerdict,
  transactionId: string | null,
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
