import { UpstreamTransaction } from '../../../domain/reconciliation/reconciliation';
import { UpstreamPayment, UpstreamTopup } from './reloadly-records';
import { UpstreamVerdict, verdictOfPayment, verdictOfTopup } from './reloadly-outcomes';
import { instantOfReportTime } from './report-time';

/**
 * Reloadly's transactions as reconciliation and the success check read them: a topup in what it delivered, a
 * payment in its amount; dated by Reloadly's date read in the report's zone, or `undated` when it gives none.
 */
export function topupTransaction(topup: UpstreamTopup, zone: string, undated: Date): UpstreamTransaction {
  const delivered = topup.deliveredAmount !== null && topup.deliveredAmountCurrencyCode !== null;
  return {
    customIdentifier: topup.customIdentifier,
    transactionId: topup.transactionId ?? '',
    status: statusOf(verdictOfTopup(topup)),
    amount: (delivered ? topup.deliveredAmount : topup.requestedAmount) ?? '',
    currency: (delivered ? topup.deliveredAmountCurrencyCode : topup.requestedAmountCurrencyCode) ?? '',
    at: instantOf(topup.transactionDate, zone, undated),
  };
}

export function paymentTransaction(payment: UpstreamPayment, zone: string, undated: Date): UpstreamTransaction {
  return {
    customIdentifier: payment.referenceId,
    transactionId: payment.id ?? '',
    status: statusOf(verdictOfPayment(payment)),
    amount: payment.amount ?? payment.deliveryAmount ?? '',
    currency: (payment.amount !== null ? payment.amountCurrencyCode : payment.deliveryAmountCurrencyCode) ?? '',
    at: instantOf(payment.submittedAt, zone, undated),
  };
}

/** Processing and unlisted statuses are not final: neither paid nor refused yet. */
const statusOf = (verdict: UpstreamVerdict): UpstreamTransaction['status'] =>
  verdict === 'succeeded' ? 'succeeded' : verdict === 'failed' ? 'failed' : 'pending';

/** Reloadly dates transactions as "yyyy-MM-dd HH:mm:ss" in the report's time zone; a time with an offset passes through. */
function instantOf(text: string | null, zone: string, undated: Date): string {
  return ((text ? instantOfReportTime(text, zone) : null) ?? undated).toISOString();
}
