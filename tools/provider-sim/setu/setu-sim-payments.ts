import { Answer } from '../sim-http';
import { SETU_SIM_BILLERS } from './setu-sim-catalog';
import { dateOfTimestamp, pageOf, setuError, setuOk, traceId } from './setu-sim-http';
import { SetuSimPayment, SetuSimPaymentStatus, SetuSimState } from './setu-sim-state';

export interface SetuSimTimings {
  settleAfterMs: number;
  hangMs: number;
  listLagMs: number;
  /** How long a payment to a biller that supports pending status stays Processing. */
  pendingForMs: number;
  retryAfterSeconds: number;
}

const MODES = new Set([
  'Internet Banking',
  'Debit Card',
  'Credit Card',
  'Prepaid Card',
  'IMPS',
  'Cash',
  'UPI',
  'Wallet',
  'NEFT',
  'AEPS',
  'Account Transfer',
  'Bharat QR',
  'USSD',
]);
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:\d{2}|Z)$/;

/** Payments of fetched bills: checks, the paymentRefId idempotency, scenarios, status and the transactions list. */
export class SetuSimPayments {
  constructor(
    private readonly state: SetuSimState,
    private readonly timings: SetuSimTimings,
    private readonly now: () => number,
  ) {}

  request(body: Record<string, unknown> | null): Answer {
    const details = objectOf(body?.paymentDetails);
    const paymentRefId = typeof details.paymentRefId === 'string' ? details.paymentRefId : null;
    const fetchRefId = typeof body?.refId === 'string' ? body.refId : null;
    const answer = this.decide(body, details, paymentRefId, fetchRefId);
    const data = objectOf(objectOf(answer.body).data);
    this.state.submissions.push({
      paymentRefId,
      fetchRefId,
      at: new Date(this.now()).toISOString(),
      answer: answer.hangMs !== undefined ? 0 : answer.status,
      code:
        typeof objectOf(objectOf(answer.body).error).code === 'string'
          ? String(objectOf(objectOf(answer.body).error).code)
          : null,
      refId: typeof data.refId === 'string' ? data.refId : null,
    });
    return answer;
  }

  private decide(
    body: Record<string, unknown> | null,
    details: Record<string, unknown>,
    paymentRefId: string | null,
    fetchRefId: string | null,
  ): Answer {
    if (!fetchRefId)
      return setuError(
        400,
        'direct-pay-not-allowed',
        'This biller does not support pay without doing fetch/validation first.',
      );
    const amount = details.amount;
    if (
      typeof amount !== 'number' ||
      !Number.isSafeInteger(amount) ||
      amount < 1 ||
      typeof details.mode !== 'string' ||
      !paymentRefId ||
      paymentRefId.length < 6 ||
      paymentRefId.length > 35 ||
      typeof details.timestamp !== 'string' ||
      !TIMESTAMP.test(details.timestamp) ||
      typeof details.accountInfo !== 'string' ||
      typeof objectOf(body?.remitter).name !== 'string'
    )
      return setuError(
        400,
        'invalid-params',
        'paymentDetails {amount (paise), mode, paymentRefId (6-35), timestamp, accountInfo} and remitter.name are required',
      );
    if (!MODES.has(details.mode)) return setuError(400, 'invalid-payment-mode', 'Invalid payment mode for payment.');
    // The paymentRefId is the idempotency key: a payment under it that has not failed is the one.
    const earlier = this.state.paymentByPaymentRef(paymentRefId);
    if (earlier) {
      this.settle(earlier);
      if (earlier.status !== 'Failure') {
        const named = this.state.duplicatesName ?? earlier.refId;
        return {
          status: 409,
          body: {
            data: {
              refId: named,
              duplicate: {
                code: 'duplicate-request',
                message: `a payment with paymentRefId ${paymentRefId} exists`,
                refId: named,
              },
            },
            success: false,
            traceId: traceId(),
          },
        };
      }
    }
    const fetch = this.state.fetches.get(fetchRefId);
    if (!fetch) return setuError(400, 'invalid-ref-id', 'Invalid reference ID.');
    if (fetch.status === 'Processing')
      return setuError(400, 'fetch-in-progress', 'Fetch request is still in progress.');
    if (fetch.status === 'Failure')
      return setuError(400, 'invalid-payment-request', 'Payment request is invalid. Fetch API call not found.');
    const biller = SETU_SIM_BILLERS.find((candidate) => candidate.id === fetch.billerId);
    const exactness = biller?.exactness ?? 'Exact';
    const fits =
      exactness === 'Any' ||
      (exactness === 'Exact' && amount === fetch.amountPaise) ||
      (exactness === 'Exact and above' && amount >= fetch.amountPaise) ||
      (exactness === 'Exact and below' && amount <= fetch.amountPaise);
    if (!fits) return setuError(400, 'invalid-amount', 'Amount is invalid for this payment. Exactness does not match.');
    const scenario = fetch.scenario;
    if (scenario === 'insufficient_funds') return setuError(400, 'insufficient-funds', 'Insufficient Funds.');
    if (scenario === 'unavailable_once' && !this.state.refusedOnce.has(paymentRefId)) {
      this.state.refusedOnce.add(paymentRefId);
      return setuError(503, 'internal-error', 'Internal error.');
    }
    if (scenario === 'rate_limited_once' && !this.state.refusedOnce.has(paymentRefId)) {
      this.state.refusedOnce.add(paymentRefId);
      return {
        ...setuError(429, 'too-many-requests', 'Too many requests.'),
        headers: { 'retry-after': String(this.timings.retryAfterSeconds) },
      };
    }
    const now = this.now();
    const finalStatus: SetuSimPaymentStatus | null =
      scenario === 'processing_forever'
        ? null
        : scenario === 'bbps_failure' || scenario === 'lost_then_failure'
          ? 'Failure'
          : 'Success';
    const payment: SetuSimPayment = {
      // The first payment of a fetch keeps the fetch's refId; a retry after a failure gets a new one.
      refId: fetch.payments === 0 ? fetch.refId : this.state.newRefId(),
      fetchRefId,
      paymentRefId,
      billerId: fetch.billerId,
      consumerNumber: fetch.consumerNumber,
      amountPaise: amount,
      mode: details.mode,
      timestamp: details.timestamp,
      status: 'Processing',
      finalStatus,
      transactionId: this.state.newTransactionId(),
      scenario,
      createdAt: now,
      listedFrom: scenario === 'lost_and_unlisted' ? now + this.timings.listLagMs : now,
      settleAfterMs: biller?.supportsPendingStatus ? this.timings.pendingForMs : this.timings.settleAfterMs,
      unreferenced: scenario === 'unreferenced_record',
    };
    fetch.payments++;
    this.state.payments.push(payment);
    if (scenario === 'lost_then_success' || scenario === 'lost_then_failure' || scenario === 'lost_and_unlisted')
      return { status: 200, body: {}, hangMs: this.timings.hangMs };
    if (scenario === 'error_after_recording') return setuError(500, 'internal-error', 'Internal error.');
    if (scenario === 'html_after_recording')
      return {
        status: 200,
        body: '<html><body>Request received</body></html>',
        headers: { 'content-type': 'text/html' },
      };
    if (scenario === 'unsuccessful_after_recording')
      return { ...setuError(200, 'internal-error', 'Something went wrong.'), status: 200 };
    return setuOk({ refId: payment.refId });
  }

  response(body: Record<string, unknown> | null): Answer {
    const payment = typeof body?.refId === 'string' ? this.state.paymentByRefId(body.refId) : undefined;
    if (!payment) return setuError(400, 'invalid-ref-id', 'Invalid reference ID.');
    this.settle(payment);
    return setuOk({
      refId: payment.refId,
      status: payment.status,
      transactionId: payment.transactionId,
      billerId: payment.billerId,
      billerRefId: `BR${payment.refId.slice(-8)}`,
      paymentDetails: {
        amount: payment.amountPaise,
        mode: payment.mode,
        ...(payment.unreferenced ? {} : { paymentRefId: payment.paymentRefId }),
        timestamp: payment.timestamp,
      },
      ...(payment.status === 'Failure' ? { failureReason: failureReasonOf(payment.failureCode ?? 'BRR005') } : {}),
    });
  }

  /** The transactions list: startDate and endDate (dates of the partner's timestamps) are required. */
  list(query: URLSearchParams, path: string): Answer {
    const startDate = query.get('startDate');
    const endDate = query.get('endDate');
    const date = /^\d{4}-\d{2}-\d{2}$/;
    if (!startDate || !endDate || !date.test(startDate) || !date.test(endDate))
      return setuError(400, 'validation-error', 'startDate and endDate (YYYY-MM-DD) are required');
    const now = this.now();
    const listed = this.state.payments.filter((payment) => {
      const day = dateOfTimestamp(payment.timestamp);
      return payment.listedFrom <= now && day >= startDate && day <= endDate;
    });
    for (const payment of listed) this.settle(payment);
    const { page, nextPage } = pageOf(listed, (payment) => payment.refId, query, path);
    return setuOk({
      transactions: page.map((payment) => ({
        amount: payment.amountPaise,
        billerId: payment.billerId,
        mobile: null,
        paymentRefId: payment.unreferenced ? null : payment.paymentRefId,
        refId: payment.refId,
        // The list writes a failed payment as Error.
        status: payment.status === 'Failure' ? 'Error' : payment.status,
        timestamp: payment.timestamp,
        transactionId: payment.transactionId,
      })),
      nextPage,
    });
  }

  /** A Processing payment shows its final status once its settle-after has passed. */
  settle(payment: SetuSimPayment): void {
    if (
      payment.status === 'Processing' &&
      payment.finalStatus &&
      this.now() - payment.createdAt >= payment.settleAfterMs
    )
      payment.status = payment.finalStatus;
  }
}

function objectOf(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The failure reasons the simulator gives: a biller's refusal, or BBPS's timeout ("could not be confirmed"). */
function failureReasonOf(code: string): { code: string; message: string; type: string } {
  return code === 'npci-connectivity-timeout'
    ? { code, message: 'The transaction could not be confirmed', type: 'BBPS' }
    : { code, message: 'Biller not accepting payments at the moment', type: 'BBPS' };
}
