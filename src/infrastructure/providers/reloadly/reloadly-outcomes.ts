import { UpstreamPayment, UpstreamTopup } from './reloadly-records';

/** What an upstream status or error code means for an order (decision 0042); `unknown` is never a failure. */
export type UpstreamVerdict = 'succeeded' | 'failed' | 'processing' | 'unknown';

export const TOPUP_STATUSES: Record<string, UpstreamVerdict> = {
  SUCCESSFUL: 'succeeded',
  FAILED: 'failed',
  REFUNDED: 'failed',
  PROCESSING: 'processing',
  PENDING: 'processing',
};

export const PAYMENT_STATUSES: Record<string, UpstreamVerdict> = {
  SUCCESSFUL: 'succeeded',
  FAILED: 'failed',
  REFUNDED: 'failed',
  PROCESSING: 'processing',
};

/** Codes with which Reloadly refuses an attempt before taking money; any other code leaves the outcome unknown (decision 0042). */
export const DEFINITIVE_REFUSALS: ReadonlySet<string> = new Set([
  'INVALID_RECIPIENT_PHONE',
  'INVALID_SENDER_PHONE',
  'INVALID_PHONE_NUMBER',
  'COUNTRY_NOT_SUPPORTED',
  'OPERATOR_UNAVAILABLE_OR_CURRENTLY_INACTIVE',
  'OPERATOR_NOT_IN_SERVICE',
  'INACTIVE_ACCOUNT',
  'ACCOUNT_NOT_FOUND',
  'INVALID_AMOUNT_FOR_OPERATOR',
  'INVALID_AMOUNT',
  'COULD_NOT_AUTO_DETECT_OPERATOR',
  'PHONE_RECENTLY_RECHARGED',
  'MAX_DAILY_TRANSACTION_COUNT_REACHED',
  'MAX_DAILY_TRANSACTION_AMOUNT_REACHED',
  'INSUFFICIENT_BALANCE',
]);

export const verdictOfTopup = (topup: UpstreamTopup): UpstreamVerdict => TOPUP_STATUSES[topup.status] ?? 'unknown';
export const verdictOfPayment = (payment: UpstreamPayment): UpstreamVerdict =>
  PAYMENT_STATUSES[payment.status] ?? 'unknown';

/** A refusal of a send: definitive only for a listed code on a 4xx answer (a 5xx is never definitive). */
export const verdictOfRefusal = (httpStatus: number, errorCode: string | null): UpstreamVerdict =>
  httpStatus >= 400 && httpStatus < 500 && errorCode !== null && DEFINITIVE_REFUSALS.has(errorCode)
    ? 'failed'
    : 'unknown';
