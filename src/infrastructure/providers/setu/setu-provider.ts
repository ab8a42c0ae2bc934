import {
  BillQuery,
  OutstandingBill,
  ProviderGateway,
  ProviderOrder,
  ProviderOutcome,
  ProviderUnavailableError,
} from '../../../application/ports/provider-gateway.port';
import { OrderProduct } from '../../../domain/wallet/order-product';
import { DateRange, RegisterAnswer, SetuApiClient } from './setu-api';
import { SetuBillFetcher } from './setu-bill-fetch';
import { SetuBillers } from './setu-billers';
import { BillerLabels } from './setu-customer-params';
import { istDate, istTimestamp, paymentRefIdOf } from './setu-identifiers';
import { paiseOf } from './setu-money';
import { SETU_POLL_AFTER_MS, failed, outcomeOfRecord } from './setu-payment-outcome';
import { verdictOfRefusal } from './setu-outcomes';
import { PAYMENT_MODE, SetuSettings, WALLET_NAME } from './setu-settings';

export { SETU_POLL_AFTER_MS } from './setu-payment-outcome';
/**
 * A payment whose outcome is unknown is sent again (same paymentRefId, which Setu keeps as the
 * idempotency key for 24 hours) only within this time of the order's placement; later it is
 * only looked up.
 */
export const SETU_RESEND_WINDOW_MS = 60 * 60_000;
/**
 * How long after its placement Setu may still give a payment's final word: "a payment can be in progress for up
 * to 2 days" for billers that support pending status (docs/decisions/0117-held-orders-followed.md). No absence
 * is confirmed before it (docs/decisions/0121-setu-absence-and-answers.md).
 */
export const SETU_DELIVERY_HORIZON_MS = 48 * 60 * 60_000;
const DAY_MS = 86_400_000;

type BillProduct = Extract<OrderProduct, { kind: 'bill_payment' }>;

type LookUp = { kind: 'found'; outcome: ProviderOutcome } | { kind: 'none'; unattributed: number; range: DateRange };

/**
 * The live provider over Setu's BBPS BillPay API (v2): a fetched bill is paid under our order id as `paymentRefId`. A
 * retry looks the payment up first and resends only when Setu shows nothing, within the window; a failure is answered
 * only on a refusal, a failed record, or absence past the horizon (decision 0121).
 */
export class SetuProvider implements ProviderGateway {
  private readonly bills: SetuBillFetcher;
  private readonly billers: SetuBillers;

  constructor(
    private readonly api: SetuApiClient,
    private readonly settings: SetuSettings,
    labelsOf: (billerId: number) => BillerLabels | null,
  ) {
    this.billers = new SetuBillers(api);
    this.bills = new SetuBillFetcher(api, settings, labelsOf, this.billers);
  }

  deliveryHorizonMs(kind: OrderProduct['kind']): number {
    return kind === 'bill_payment' ? SETU_DELIVERY_HORIZON_MS : 0;
  }

  async submit(order: ProviderOrder, now: Date, signal?: AbortSignal): Promise<ProviderOutcome> {
    const product = order.product;
    if (product.kind !== 'bill_payment')
      return failed('setu pays BBPS bills only; a topup cannot be sent to it', 'not_sent');
    const billerId = upstreamIdOf(order);
    if (billerId === null) return failed(`no setu route for biller ${product.billerId}`, 'not_sent');
    const paymentRefId = paymentRefIdOf(order.orderId);
    if (paymentRefId === null) return failed(`order id ${order.orderId} cannot be a setu paymentRefId`, 'not_sent');
    const paise = order.currency === 'INR' ? paiseOf(order.amount) : null;
    if (paise === null || paise <= 0n)
      return failed(`setu takes whole paise in INR; ${order.amount} ${order.currency} cannot be sent`, 'not_sent');
    if (!product.providerBillRef)
      return failed(
        `the bill was not fetched through setu (no fetch refId to pay); fetch it again with POST /bill-info`,
        'not_sent',
      );
    if (order.resubmission) {
      // An earlier attempt may have reached Setu: what it has under the paymentRefId decides.
      const earlier = await this.lookUp(order, paymentRefId, signal);
      if (earlier.kind === 'found') return earlier.outcome;
      if (now.getTime() - Date.parse(order.placedAt) > SETU_RESEND_WINDOW_MS) return this.notFound(order, now, earlier);
    }
    const fee = await this.billers.feeRefusal(billerId, signal);
    if (fee) return failed(fee, 'not_sent');
    const answer = await this.api.payBill(
      {
        refId: product.providerBillRef,
        amountPaise: paise,
        mode: PAYMENT_MODE,
        paymentRefId,
        timestamp: istTimestamp(new Date(order.placedAt)),
        accountInfo: `${WALLET_NAME}|${this.settings.agentMobile}`,
        remitterName: this.settings.remitterName,
      },
      signal,
    );
    return this.outcomeOfSend(order, paymentRefId, product, answer, signal);
  }

  async poll(order: ProviderOrder, now: Date, signal?: AbortSignal): Promise<ProviderOutcome> {
    const paymentRefId = paymentRefIdOf(order.orderId);
    if (paymentRefId === null) throw new Error(`order ${order.orderId} has no setu paymentRefId`);
    const found = await this.lookUp(order, paymentRefId, signal);
    return found.kind === 'found' ? found.outcome : this.notFound(order, now, found);
  }

  fetchBill(request: BillQuery, now: Date, signal?: AbortSignal): Promise<OutstandingBill | null> {
    return this.bills.fetchBill(request, now, signal);
  }

  private async outcomeOfSend(
    order: ProviderOrder,
    paymentRefId: string,
    product: BillProduct,
    answer: RegisterAnswer,
    signal?: AbortSignal,
  ): Promise<ProviderOutcome> {
    // Taken as new under our paymentRefId (Setu's idempotency key): this payment is the order's, whatever came before.
    if (answer.kind === 'accepted')
      return { status: 'pending', providerReference: answer.refId, pollAfterMs: SETU_POLL_AFTER_MS };
    if (answer.kind === 'duplicate') {
      // Setu has a payment under this paymentRefId already: that payment is the order's, whatever it says, once
      // its own record names our paymentRefId (a duplicate naming another payment is not taken on its word).
      const first = answer.refId ? await this.byRefId(answer.refId, order, signal) : null;
      if (first) return first;
      const found = await this.lookUp(order, paymentRefId, signal);
      if (found.kind === 'found') return found.outcome;
      throw new ProviderUnavailableError(
        `setu answered 409 duplicate for paymentRefId ${paymentRefId}${answer.message ? ` (${answer.message})` : ''} but the first payment cannot be read yet; it is asked about again`,
      );
    }
    const refusal = `setu refused the payment of biller ${product.billerId}: HTTP ${answer.httpStatus}${answer.code ? ` ${answer.code}` : ''}${answer.message ? ` (${answer.message})` : ''}`;
    if (verdictOfRefusal(answer.httpStatus, answer.code) === 'failed') {
      // A refusal speaks for this attempt only: an earlier one's record, if any, decides.
      const earlier = order.resubmission ? await this.lookUp(order, paymentRefId, signal) : null;
      return earlier?.kind === 'found' ? earlier.outcome : failed(refusal, 'refused');
    }
    // Unknown (5xx, an unlisted code): what Setu has decides.
    const found = await this.lookUp(order, paymentRefId, signal);
    if (found.kind === 'found') return found.outcome;
    throw new ProviderUnavailableError(
      `${refusal}; the outcome is unknown and no payment is recorded under ${paymentRefId} yet, so the order is asked about again`,
    );
  }

  /**
   * The order's payment at Setu: by the refId an earlier answer gave, else (or when that finds nothing) in the
   * transactions list by the paymentRefId, every page over the days of the timestamp we send (the order's
   * placement, in India's time), a day wider each side.
   */
  private async lookUp(order: ProviderOrder, paymentRefId: string, signal?: AbortSignal): Promise<LookUp> {
    const byRef = order.providerReference ? await this.byRefId(order.providerReference, order, signal) : null;
    if (byRef) return { kind: 'found', outcome: byRef };
    const placedAt = Date.parse(order.placedAt);
    const range = { startDate: istDate(new Date(placedAt - DAY_MS)), endDate: istDate(new Date(placedAt + DAY_MS)) };
    const listing = await this.api.transactionsByPaymentRef(paymentRefId, range, signal);
    if (listing.matching.length === 0) return { kind: 'none', unattributed: listing.unattributed, range };
    const outcomes: ProviderOutcome[] = [];
    for (const entry of listing.matching) {
      // The list gives no failure reason, and the reason decides whether a failure is confirmed: it is read by refId.
      const read = entry.refId ? await this.byRefId(entry.refId, order, signal) : null;
      outcomes.push(read ?? outcomeOfRecord({ ...entry, failure: null, listed: true }, order));
    }
    // One paymentRefId may hold several payments (a new one is taken after a failure at BBPS): a success that is
    // not the order is held first; any success is the order's; any payment still open or unknown keeps it open;
    // it fails only when every one of them failed.
    const first = (...statuses: ProviderOutcome['status'][]) => outcomes.find((o) => statuses.includes(o.status));
    const outcome =
      first('mismatch') ?? first('succeeded') ?? first('pending', 'unknown') ?? outcomes[outcomes.length - 1];
    return { kind: 'found', outcome };
  }

  /**
   * The payment Setu holds under a refId, as the order's outcome; null when Setu does not know the refId, or
   * when its record does not name our paymentRefId.
   */
  private async byRefId(refId: string, order: ProviderOrder, signal?: AbortSignal): Promise<ProviderOutcome | null> {
    const payment = await this.api.payment(refId, signal);
    // A record without our paymentRefId (another's, or none) is never taken as the order's.
    if (!payment || payment.paymentRefId !== paymentRefIdOf(order.orderId)) return null;
    return outcomeOfRecord({ ...payment, listed: false }, order);
  }

  /**
   * Nothing under the paymentRefId (docs/decisions/0121-setu-absence-and-answers.md): the order stays in doubt
   * until Setu's horizon has passed; then its absence is confirmed by a list read whole, unless Setu acknowledged
   * the payment (its refId is the order's reference) or the list holds entries that name no paymentRefId.
   */
  private notFound(order: ProviderOrder, now: Date, none: Extract<LookUp, { kind: 'none' }>): ProviderOutcome {
    const paymentRefId = paymentRefIdOf(order.orderId) ?? order.orderId;
    const horizon = new Date(Date.parse(order.placedAt) + SETU_DELIVERY_HORIZON_MS);
    const unknown = (reason: string): ProviderOutcome => ({
      status: 'unknown',
      reason,
      retryAfterMs: SETU_POLL_AFTER_MS,
    });
    if (order.providerReference)
      return unknown(
        `setu does not show payment ${order.providerReference} (paymentRefId ${paymentRefId}) just now, although it acknowledged it; it is never taken as absent`,
      );
    if (now.getTime() < horizon.getTime())
      return unknown(
        `setu shows no payment under paymentRefId ${paymentRefId} yet; it may still give one until ${horizon.toISOString()}`,
      );
    if (none.unattributed > 0)
      return unknown(
        `setu shows no payment under paymentRefId ${paymentRefId}, but ${none.unattributed} entries of its transactions list (${none.range.startDate} to ${none.range.endDate}) name no paymentRefId; any of them might be this order's`,
      );
    return failed(
      `setu has no payment under paymentRefId ${paymentRefId}: its transactions list, read whole from ${none.range.startDate} to ${none.range.endDate}, shows none ${SETU_DELIVERY_HORIZON_MS / 3_600_000} hours after the order was placed; it was never recorded there`,
      'absence_confirmed',
    );
  }
}

function upstreamIdOf(order: ProviderOrder): string | null {
  const id = order.route?.provider === 'setu' ? order.route.upstreamId : null;
  return id !== null && /^[A-Za-z0-9]{1,40}$/.test(id) ? id : null;
}
