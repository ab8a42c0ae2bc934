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
import { ReloadlyApiClient, SendAnswer, TimeRange } from './reloadly-api';
import { UpstreamOperator, UpstreamPayment, UpstreamTopup } from './reloadly-records';
import { ReloadlyFloat } from './reloadly-float';
import { RELOADLY_DELIVERY_HORIZON_MS } from './reloadly-horizons';
import { UpstreamVerdict, verdictOfPayment, verdictOfRefusal, verdictOfTopup } from './reloadly-outcomes';
import { ReloadlyProducts } from './reloadly-products';
import { paymentMismatch, topupMismatch } from './reloadly-success-check';
import { paymentTransaction, topupTransaction } from './reloadly-upstream-transaction';
import { dividedBy, scaled, unscaled } from './upstream-decimal';

/** How long after a "still processing" answer, or a look-up that found nothing yet, the order is looked up again. */
export const RELOADLY_POLL_AFTER_MS = 30_000;
/** A look-up's report reaches this far before the order was placed and after now (any time zone, any clock skew). */
const REPORT_MARGIN_MS = 24 * 60 * 60_000;
const HOUR_MS = 60 * 60_000;

/** An order whose earlier attempt may have reached Reloadly is never sent again, only looked up (decision 0040). */
const RESEND_AFTER_UNKNOWN: Readonly<Record<OrderProduct['kind'], boolean>> = {
  topup: false,
  bill_payment: false,
};

type TopupProduct = Extract<OrderProduct, { kind: 'topup' }>;
type BillProduct = Extract<OrderProduct, { kind: 'bill_payment' }>;

/** Reloadly's airtime and utilities APIs, the order id as `customIdentifier` / `referenceId`; an order in doubt is only looked up. */
export class ReloadlyProvider implements ProviderGateway {
  private readonly products: ReloadlyProducts;

  constructor(
    private readonly api: ReloadlyApiClient,
    private readonly float: ReloadlyFloat,
    now: () => number = Date.now,
  ) {
    this.products = new ReloadlyProducts(api, now);
  }

  deliveryHorizonMs(kind: OrderProduct['kind']): number {
    return RELOADLY_DELIVERY_HORIZON_MS[kind];
  }

  async submit(order: ProviderOrder, now: Date, signal?: AbortSignal): Promise<ProviderOutcome> {
    const inDoubt = order.resubmission === true || (order.inDoubtSince ?? null) !== null;
    if (inDoubt && !RESEND_AFTER_UNKNOWN[order.product.kind]) return this.follow(order, now, signal);
    return order.product.kind === 'topup'
      ? this.submitTopup(order, order.product, now, signal)
      : this.submitPayment(order, order.product, now, signal);
  }

  async poll(order: ProviderOrder, now: Date, signal?: AbortSignal): Promise<ProviderOutcome> {
    return this.follow(order, now, signal);
  }

  async fetchBill(request: BillQuery): Promise<OutstandingBill | null> {
    throw new BillFetchUnsupportedError(
      `biller ${request.billerId} is served by reloadly, whose utilities API cannot fetch outstanding bills`,
    );
  }

  private async submitTopup(
    order: ProviderOrder,
    product: TopupProduct,
    now: Date,
    signal?: AbortSignal,
  ): Promise<ProviderOutcome> {
    const upstreamId = upstreamIdOf(order);
    if (upstreamId === null) return notSent(`no reloadly route for operator ${product.operatorId}`);
    const operator = await this.products.operatorFor(order, upstreamId, signal);
    if ('refusal' in operator) return notSent(operator.refusal);
    const short = await this.floatShortOf(costOf(order, operator.product), signal);
    if (short) return notSent(short);
    const country = CORRIDORS[corridorOf(order.currency)].country;
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
    return sent(() =>
      this.outcomeOfSend(order, answer, now, (topup) => Promise.resolve(this.topupOutcome(order, topup, now)), signal),
    );
  }

  private async submitPayment(
    order: ProviderOrder,
    product: BillProduct,
    now: Date,
    signal?: AbortSignal,
  ): Promise<ProviderOutcome> {
    const upstreamId = upstreamIdOf(order);
    if (upstreamId === null) return notSent(`no reloadly route for biller ${product.billerId}`);
    const biller = await this.products.billerFor(order, upstreamId, signal);
    if ('refusal' in biller) return notSent(biller.refusal);
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
    return sent(() =>
      this.outcomeOfSend(order, answer, now, (payment) => this.paymentAnswered(order, payment, now, signal), signal),
    );
  }

  /** A definitive refusal fails this attempt; any other non-transaction answer is unknown and the order id is looked up. */
  private async outcomeOfSend<T extends UpstreamTopup | UpstreamPayment>(
    order: ProviderOrder,
    answer: SendAnswer<T>,
    now: Date,
    outcomeOf: (transaction: T) => Promise<ProviderOutcome>,
    signal?: AbortSignal,
  ): Promise<ProviderOutcome> {
    if (answer.kind === 'accepted') {
      this.float.observe(answer.transaction.newBalance);
      return outcomeOf(answer.transaction);
    }
    const refusal =
      answer.httpStatus >= 200 && answer.httpStatus < 300
        ? `reloadly answered the order HTTP ${answer.httpStatus} with something that is not the transaction`
        : `reloadly refused the order: HTTP ${answer.httpStatus}${answer.errorCode ? ` ${answer.errorCode}` : ''}${answer.message ? ` (${answer.message})` : ''}`;
    if (verdictOfRefusal(answer.httpStatus, answer.errorCode) === 'failed')
      return { status: 'failed', reason: refusal, basis: 'refused' };
    let found: ProviderOutcome | null;
    try {
      found = await this.lookUp(order, now, signal);
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

  /** What Reloadly has under the order decides; past the horizon a complete empty report fails it, unless Reloadly acknowledged it. */
  private async follow(order: ProviderOrder, now: Date, signal?: AbortSignal): Promise<ProviderOutcome> {
    const found = await this.lookUp(order, now, signal);
    if (found) return found;
    const horizonMs = this.deliveryHorizonMs(order.product.kind);
    const horizon = new Date(Date.parse(order.placedAt) + horizonMs);
    if (!order.providerReference && now.getTime() >= horizon.getTime()) {
      const { from, to } = reportRange(order, now);
      const report = order.product.kind === 'topup' ? 'topup report' : 'utility transactions';
      return {
        status: 'failed',
        reason: `reloadly has no transaction under ${order.orderId}: its ${report} from ${from.toISOString()} to ${to.toISOString()} (read in ${this.api.reportTimeZone}, every page) shows none, past the ${horizonMs / HOUR_MS} h horizon after the order was placed`,
        basis: 'absence_confirmed',
      };
    }
    return {
      status: 'unknown',
      reason: order.providerReference
        ? `reloadly does not show transaction ${order.providerReference} (${order.orderId}) just now`
        : `reloadly has no transaction under ${order.orderId} yet; it may still show one until ${horizon.toISOString()}`,
      retryAfterMs: RELOADLY_POLL_AFTER_MS,
    };
  }

  /** The order at Reloadly by its transaction id when known, else by the order id in the report over its whole life; null when absent. */
  private async lookUp(order: ProviderOrder, now: Date, signal?: AbortSignal): Promise<ProviderOutcome | null> {
    const reference = order.providerReference ?? null;
    const range = reportRange(order, now);
    if (order.product.kind === 'topup') {
      const topup =
        (reference ? await this.api.topupByTransactionId(reference, signal) : null) ??
        (await this.api.topupByCustomIdentifier(order.orderId, signal, range));
      return topup ? this.topupOutcome(order, topup, now) : null;
    }
    const payment =
      (reference ? await this.api.paymentById(reference, signal) : null) ??
      (await this.api.paymentByReferenceId(order.orderId, signal, range));
    return payment ? this.paymentOutcome(order, payment, now) : null;
  }

  private topupOutcome(order: ProviderOrder, topup: UpstreamTopup, now: Date): ProviderOutcome {
    const detail = topup.code || topup.message ? ` (${[topup.code, topup.message].filter(Boolean).join(' ')})` : '';
    const described = `reloadly topup ${topup.transactionId ?? `under ${order.orderId}`} ${topup.status}${detail}`;
    const operatorRef = topup.operatorTransactionId || topup.transactionId || `reloadly-${order.orderId}`;
    const verdict = verdictOfTopup(topup);
    const mismatch = verdict === 'succeeded' ? topupMismatch(order, topup) : null;
    if (mismatch)
      return {
        status: 'mismatch',
        reason: `${described}, but ${mismatch}`,
        operatorRef,
        upstream: topupTransaction(topup, this.api.reportTimeZone, { at: now }),
      };
    return outcomeOf(verdict, topup.transactionId, operatorRef, described);
  }

  /**
   * `POST /pay` gives no amount: a success is checked as `GET /transactions/{id}` shows it, followed by its id till then.
   */
  private async paymentAnswered(
    order: ProviderOrder,
    payment: UpstreamPayment,
    now: Date,
    signal?: AbortSignal,
  ): Promise<ProviderOutcome> {
    const stated = payment.amount !== null || payment.deliveryAmount !== null;
    if (verdictOfPayment(payment) !== 'succeeded' || stated || payment.id === null)
      return this.paymentOutcome(order, payment, now);
    let recorded: UpstreamPayment | null = null;
    try {
      recorded = await this.api.paymentById(payment.id, signal);
    } catch (error) {
      if (!(error instanceof ProviderUnavailableError) || signal?.aborted) throw error;
    }
    return recorded
      ? this.paymentOutcome(order, recorded, now)
      : { status: 'pending', providerReference: payment.id, pollAfterMs: RELOADLY_POLL_AFTER_MS };
  }

  private paymentOutcome(order: ProviderOrder, payment: UpstreamPayment, now: Date): ProviderOutcome {
    const detail = payment.message ? ` (${payment.code ?? ''} ${payment.message})` : '';
    const described = `reloadly payment ${payment.id ?? `under ${order.orderId}`} ${payment.status}${detail}`;
    const operatorRef = payment.id ?? `reloadly-${order.orderId}`;
    const verdict = verdictOfPayment(payment);
    const mismatch = verdict === 'succeeded' ? paymentMismatch(order, payment) : null;
    if (mismatch)
      return {
        status: 'mismatch',
        reason: `${described}, but ${mismatch}`,
        operatorRef,
        upstream: paymentTransaction(payment, this.api.reportTimeZone, { at: now }),
      };
    return outcomeOf(verdict, payment.id, operatorRef, described);
  }

  /** Why the float cannot cover a cost, or null (also when it cannot tell: Reloadly then refuses with INSUFFICIENT_BALANCE, taking nothing). */
  private async floatShortOf(
    cost: { amount: bigint; currency: string } | null,
    signal?: AbortSignal,
  ): Promise<string | null> {
    if (!cost) return null;
    const reading = await this.float.readOrNull(signal);
    if (!reading) return null;
    if (cost.currency !== reading.currencyCode || scaled(reading.balance) >= cost.amount) return null;
    return `the provider float (${reading.balance} ${reading.currencyCode}) cannot cover the order (about ${unscaled(cost.amount)} ${reading.currencyCode}); it was not sent`;
  }
}

const notSent = (reason: string): ProviderOutcome => ({ status: 'failed', reason, basis: 'not_sent' });

/** After a send went out nothing may say "not sent": the send itself may have reached Reloadly. */
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

const reportRange = (order: ProviderOrder, now: Date): TimeRange => ({
  from: new Date(Date.parse(order.placedAt) - REPORT_MARGIN_MS),
  to: new Date(now.getTime() + REPORT_MARGIN_MS),
});

function costOf(order: ProviderOrder, operator: UpstreamOperator): { amount: bigint; currency: string } | null {
  if (operator.senderCurrencyCode === order.currency) return { amount: scaled(order.amount), currency: order.currency };
  if (operator.fxRate && operator.senderCurrencyCode)
    return { amount: dividedBy(order.amount, operator.fxRate), currency: operator.senderCurrencyCode };
  return null;
}

function upstreamIdOf(order: ProviderOrder): number | null {
  const id = order.route?.provider === 'reloadly' ? order.route.upstreamId : null;
  return id !== null && /^[1-9][0-9]{0,15}$/.test(id) ? Number(id) : null;
}

function corridorOf(currency: Currency): Corridor {
  const corridor = (Object.keys(CORRIDORS) as Corridor[]).find((code) => CORRIDORS[code].currency === currency);
  if (!corridor) throw new Error(`no corridor has the currency ${currency}`);
  return corridor;
}
