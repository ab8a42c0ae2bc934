import { SetuFailure } from './setu-records';

/**
 * What Setu's statuses and error codes mean for an order (decision 0049): `succeeded`, `failed` (Setu says it did not
 * go through, or refused before taking anything), `processing`, or `unknown` (looked up until definitive).
 */
type SetuVerdict = 'succeeded' | 'failed' | 'processing' | 'unknown';

/** Statuses of a payment (`/bills/payment/response`) and of the transactions list, which says Error for Failure. */
export const PAYMENT_STATUSES: Record<string, SetuVerdict> = {
  Success: 'succeeded',
  Failure: 'failed',
  Error: 'failed',
  Processing: 'processing',
};

/**
 * Failure codes that do not say the payment failed: "the transaction could not be confirmed"
 * (a BBPS timeout) leaves the outcome open, whatever the status beside it.
 */
const UNCONFIRMED_FAILURES: ReadonlySet<string> = new Set(['npci-connectivity-timeout']);

export function verdictOfPayment(status: string, failure: SetuFailure | null): SetuVerdict {
  const verdict = PAYMENT_STATUSES[status] ?? 'unknown';
  if (verdict === 'failed' && failure?.code && UNCONFIRMED_FAILURES.has(failure.code)) return 'unknown';
  return verdict;
}

/**
 * Codes with which Setu refuses a payment request (HTTP 400) before anything is taken. Every other code and every 5xx
 * leave the outcome unknown.
 */
export const DEFINITIVE_REFUSALS: ReadonlySet<string> = new Set([
  'validation-error',
  'invalid-params',
  'invalid-biller-id',
  'invalid-payment-channel',
  'invalid-customer-param',
  'invalid-agent',
  'invalid-ref-id',
  'invalid-amount',
  'invalid-payment-mode',
  'direct-pay-not-allowed',
  'invalid-payment-request',
  'fetch-in-progress',
  'insufficient-funds',
  'not-found',
  'npci-heartbeat-error',
  'npci-connectivity-error',
  'account-not-found',
  'insufficient-balance',
  'bank-connectivity-error',
  'fund-transfer-error',
]);

export const verdictOfRefusal = (httpStatus: number, code: string | null): SetuVerdict =>
  httpStatus === 400 && code !== null && DEFINITIVE_REFUSALS.has(code) ? 'failed' : 'unknown';

type FetchVerdict = 'no_bill_due' | 'unknown_consumer' | 'unavailable';

/** BBPS's "Payment received for the billing period - no bill due". */
const NO_BILL_DUE_CODES: ReadonlySet<string> = new Set(['BFR004']);
/** The biller does not know the consumer (Setu's example `ERR004` "customer not found"), or Setu finds the identifier invalid. */
const UNKNOWN_CONSUMER_CODES: ReadonlySet<string> = new Set(['ERR004', 'invalid-customer-param']);

export function verdictOfFetchFailure(failure: { code: string | null; message: string | null }): FetchVerdict {
  if ((failure.code && NO_BILL_DUE_CODES.has(failure.code)) || /no bill due/i.test(failure.message ?? ''))
    return 'no_bill_due';
  if (failure.code && UNKNOWN_CONSUMER_CODES.has(failure.code)) return 'unknown_consumer';
  return 'unavailable';
}
