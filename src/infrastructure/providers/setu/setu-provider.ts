import {
  BillQuery,
  FailureBasis,
  OutstandingBill,
  ProviderGateway,
  ProviderOrder,
  ProviderOutcome,
  ProviderUnavailableError,
} from '../../../application/ports/provider-gateway.port';
import { OrderProduct } from '../../../domain/wallet/order-product';
import { RegisterAnswer, SetuApiClient } from './setu-api';
import { SetuBillFetcher } from './setu-bill-fetch';
import { BillerLabels } from './setu-customer-params';
import { SetuTransaction } from './setu-records';
import { istDate, istTimestamp, paymentRefIdOf } from './setu-identifiers';
import { paiseOf } from './setu-money';
import { SetuVerdict, verdictOfPayment, verdictOfRefusal } from './setu-outcomes';
import { PAYMENT_MODE, SetuSettings, WALLET_NAME } from './setu-settings';

/** How long after a "still processing" answer a payment is asked about again. */
export const SETU_POLL_AFTER_MS = 15_000;
/**
 * A payment whose outcome is unknown is sent again (same paymentRefId, which Setu keeps as the
 * idempotency key for 24 hours) only within this time of the order's placement; later it is
 * only looked up.
 */
export const SETU_RESEND_WINDOW_MS = 60 * 60_000;
/** Past this, a payment the transactions list does not show was never recorded: its absence is confirmed. */
export const SETU_ABSENCE_AFTER_MS = SETU_RESEND_WINDOW_MS + 15 * 60_000;
const DAY_MS = 86_400_000;
/** How long after placement Setu may still give a payment's final word (docs/decisions/0117-held-orders-followed.md). */
export const SETU_HORIZON_MS = 2 * DAY_MS;

type BillProduct = Extract<OrderProduct, { kind: 'bill_payment' }>;

/**
 * The live provider over Setu's BBPS BillPay API (v2). A bill is fetched (request, then its
 * answer by refId) and paid by naming that fetch's refId, with our order id as the payment's
 * `paymentRefId`, the only identifier an order is ever sent under. A retried submission first
 * looks the payment up (by the refId an earlier answer gave, else in the transactions list by
 * the paymentRefId) and sends it again only when Setu shows nothing, within the re-send window;
 * a repeat that reaches Setu all the same is answered 409 duplicate with the first request's
 * refId, which is then looked up. A failure is answered only when Setu refused before taking
 * anything (and no earlier attempt is recorded), when Setu's record of the payment says it
 * failed, or when the look-up window has passed without any record of it.
 */
export class SetuProvider implements ProviderGateway {
  private readonly bills: SetuBillFetcher;

  constructor(
    private readonly api: SetuApiClient,
    private readonly settings: SetuSettings,
    labelsOf: (billerId: number) => BillerLabels | null,
  ) {
    this.bills = new SetuBillFetcher(api, settings, labelsOf);
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
      if (earlier) return earlier;
      if (now.getTime() - Date.parse(order.placedAt) > SETU_RESEND_WINDOW_MS) return this.absent(order, now);
    }
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
    if (found) return found;
    if (now.getTime() - Date.parse(order.placedAt) >= SETU_ABSENCE_AFTER_MS) return this.absent(order, now);
    // Not (yet) in Setu's records: still unknown, asked again later (held at the stuck-order limit).
    return { status: 'pending', providerReference: null, pollAfterMs: SETU_POLL_AFTER_MS };
  }

  fetchBill(request: BillQuery, now: Date, signal?: AbortSignal): Promise<OutstandingBill | null> {
    return this.bills.fetchBill(request, now, signal);
  }

  deliveryHorizonMs(kind: OrderProduct['kind']): number {
    return kind === 'bill_payment' ? SETU_HORIZON_MS : 0;
  }

  private async outcomeOfSend(
    order: ProviderOrder,
    paymentRefId: string,
    product: BillProduct,
    answer: RegisterAnswer,
    signal?: AbortSignal,
  ): Promise<ProviderOutcome> {
    if (answer.kind === 'accepted')
      return { status: 'pending', providerReference: answer.refId, pollAfterMs: SETU_POLL_AFTER_MS };
    if (answer.kind === 'duplicate') {
      // Setu has a payment under this paymentRefId already: that payment is the order's, whatever it says, once
      // its own record names our paymentRefId (a duplicate naming another payment is not taken on its word).
      const first = answer.refId ? await this.byRefId(answer.refId, order, signal) : null;
      const found = first ?? (await this.lookUp(order, paymentRefId, signal));
      if (found) return found;
      throw new ProviderUnavailableError(
        `setu answered 409 duplicate for paymentRefId ${paymentRefId}${answer.message ? ` (${answer.message})` : ''} but the first payment cannot be read yet; it is asked about again`,
      );
    }
    const refusal = `setu refused the payment of biller ${product.billerId}: HTTP ${answer.httpStatus}${answer.code ? ` ${answer.code}` : ''}${answer.message ? ` (${answer.message})` : ''}`;
    if (verdictOfRefusal(answer.httpStatus, answer.code) === 'failed') {
      // A refusal speaks for this attempt only: an earlier one's record, if any, decides.
      const earlier = order.resubmission ? await this.lookUp(order, paymentRefId, signal) : null;
      return earlier ?? failed(refusal, 'refused');
    }
    // Unknown (5xx, an unlisted code): what Setu has decides.
    const found = await this.lookUp(order, paymentRefId, signal);
    if (found) return found;
    throw new ProviderUnavailableError(
      `${refusal}; the outcome is unknown and no payment is recorded under ${paymentRefId} yet, so the order is asked about again`,
    );
  }

  /**
   * The order's payment at Setu, or null when Setu shows none: by the refId an earlier answer
   * gave, else (or when that finds nothing) in the transactions list by the paymentRefId, over
   * the days of the timestamp we send (the order's placement, in India's time), a day wider.
   */
  private async lookUp(
    order: ProviderOrder,
    paymentRefId: string,
    signal?: AbortSignal,
  ): Promise<ProviderOutcome | null> {
    const byRef = order.providerReference ? await this.byRefId(order.providerReference, order, signal) : null;
    if (byRef) return byRef;
    const placedAt = Date.parse(order.placedAt);
    const listed = await this.api.transactionsByPaymentRef(
      paymentRefId,
      { startDate: istDate(new Date(placedAt - DAY_MS)), endDate: istDate(new Date(placedAt + DAY_MS)) },
      signal,
    );
    if (listed.length === 0) return null;
    const outcomes: ProviderOutcome[] = [];
    for (const entry of listed) outcomes.push(await this.outcomeOfListed(entry, order, paymentRefId, signal));
    // One paymentRefId may hold several payments (a new one is taken after a failure at BBPS): any success is
    // the order's; any payment still open or unknown keeps it open; it fails only when every one of them failed.
    return (
      outcomes.find((outcome) => outcome.status === 'succeeded') ??
      outcomes.find((outcome) => outcome.status === 'pending' || outcome.status === 'unknown') ??
      outcomes[outcomes.length - 1]
    );
  }

  /**
   * A list entry as its payment answer tells it: the list has no failure reason, and the reason decides
   * whether a failure is confirmed. An entry whose payment cannot be read is a failure only as unknown.
   */
  private async outcomeOfListed(
    entry: SetuTransaction,
    order: ProviderOrder,
    paymentRefId: string,
    signal?: AbortSignal,
  ): Promise<ProviderOutcome> {
    const read = entry.refId ? await this.byRefId(entry.refId, order, signal) : null;
    if (read) return read;
    const verdict = verdictOfPayment(entry.status, null);
    return outcomeOf(
      verdict === 'failed' ? 'unknown' : verdict,
      entry.refId,
      entry.transactionId,
      `setu payment ${entry.refId ?? paymentRefId} ${entry.status} (transactions list)`,
    );
  }

  /**
   * The payment Setu holds under a refId, as the order's outcome; null when Setu does not know the refId, or
   * when its record names another paymentRefId (it is not this order's payment). A payment of another amount
   * than the order's is not settled or failed on: it stays unknown, and is held for an operator.
   */
  private async byRefId(refId: string, order: ProviderOrder, signal?: AbortSignal): Promise<ProviderOutcome | null> {
    const payment = await this.api.payment(refId, signal);
    if (!payment) return null;
    const ours = paymentRefIdOf(order.orderId);
    if (payment.paymentRefId !== null && payment.paymentRefId !== ours) return null;
    const failure = payment.failure
      ? ` (${[payment.failure.type, payment.failure.code, payment.failure.message].filter(Boolean).join(' ')})`
      : '';
    const described = `setu payment ${payment.refId} ${payment.status}${failure}`;
    if (payment.amount !== null && paiseOf(payment.amount) !== paiseOf(order.amount))
      return {
        status: 'unknown',
        reason: `${described} is of ${payment.amount} INR, not the order's ${order.amount} INR: it is held for an operator`,
        retryAfterMs: null,
      };
    return outcomeOf(
      verdictOfPayment(payment.status, payment.failure),
      payment.refId,
      payment.transactionId,
      described,
    );
  }

  /**
   * Nothing under the paymentRefId: confirmed absent once the look-up window has passed, unknown before. A
   * payment Setu acknowledged (its refId is the order's provider reference) is never absent, whatever Setu
   * answers for it later: it stays unknown and is held for an operator.
   */
  private absent(order: ProviderOrder, now: Date): ProviderOutcome {
    if (order.providerReference)
      throw new ProviderUnavailableError(
        `setu does not show payment ${order.providerReference} (${order.orderId}) just now, although it acknowledged it; it is never taken as absent`,
      );
    if (now.getTime() - Date.parse(order.placedAt) >= SETU_ABSENCE_AFTER_MS)
      return failed(
        `setu has no payment under paymentRefId ${paymentRefIdOf(order.orderId) ?? order.orderId} ${Math.round(SETU_ABSENCE_AFTER_MS / 60_000)} minutes after the order was placed; it was never recorded there`,
        'absence_confirmed',
      );
    throw new ProviderUnavailableError(
      `setu shows no payment under ${order.orderId} yet and the order is past its re-send window; it is looked up again`,
    );
  }
}

function outcomeOf(
  verdict: SetuVerdict,
  refId: string | null,
  transactionId: string | null,
  reason: string,
): ProviderOutcome {
  switch (verdict) {
    case 'succeeded':
      return { status: 'succeeded', operatorRef: transactionId ?? refId ?? 'setu' };
    case 'failed':
      return failed(reason, 'provider_record');
    case 'processing':
    case 'unknown':
      return { status: 'pending', providerReference: refId, pollAfterMs: SETU_POLL_AFTER_MS };
  }
}

const failed = (reason: string, basis: FailureBasis): ProviderOutcome => ({ status: 'failed', reason, basis });

/** Setu's biller id from the route the order was placed with (BBPS ids are letters and digits). */
function upstreamIdOf(order: ProviderOrder): string | null {
  const id = order.route?.provider === 'setu' ? order.route.upstreamId : null;
  return id !== null && /^[A-Za-z0-9]{1,40}$/.test(id) ? id : null;
}
