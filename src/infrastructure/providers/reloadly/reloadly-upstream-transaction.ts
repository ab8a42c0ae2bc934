import { UnreadableReportError } from '../../../application/ports/provider-back-office.port';
import { UpstreamTransaction } from '../../../domain/reconciliation/reconciliation';
import { UpstreamPayment, UpstreamTopup } from './reloadly-records';
import { UpstreamVerdict, verdictOfPayment, verdictOfTopup } from './reloadly-outcomes';
import { instantOfReportTime } from './report-time';
import { quotedUpstreamText, reportEntryName } from '../upstream-text';

/** How a transaction with an unreadable date is dated: at a fixed time, or refused (reconciliation: UnreadableReportError). */
type WhenUndated = { at: Date } | 'refuse';

/**
 * Reloadly's transactions as reconciliation and the success check read them: a topup in what it delivered, a
 * payment in its amount; dated by Reloadly's date read in the report's zone.
 */
export function topupTransaction(topup: UpstreamTopup, zone: string, undated: WhenUndated): UpstreamTransaction {
  const delivered = topup.deliveredAmount !== null && topup.deliveredAmountCurrencyCode !== null;
  const name = reportEntryName('topup', topup.transactionId ?? '-', topup.customIdentifier);
  return {
    customIdentifier: topup.customIdentifier,
    transactionId: topup.transactionId ?? '',
    status: statusOf(verdictOfTopup(topup)),
    amount: (delivered ? topup.deliveredAmount : topup.requestedAmount) ?? '',
    currency: (delivered ? topup.deliveredAmountCurrencyCode : topup.requestedAmountCurrencyCode) ?? '',
    at: instantOf(topup.transactionDate, zone, undated, name, 'transactionDate'),
  };
}

export function paymentTransaction(payment: UpstreamPayment, zone: string, undated: WhenUndated): UpstreamTransaction {
  const name = reportEntryName('bill payment', payment.id ?? '-', payment.referenceId);
  return {
    customIdentifier: payment.referenceId,
    transactionId: payment.id ?? '',
    status: statusOf(verdictOfPayment(payment)),
    amount: payment.amount ?? payment.deliveryAmount ?? '',
    currency: (payment.amount !== null ? payment.amountCurrencyCode : payment.deliveryAmountCurrencyCode) ?? '',
    at: instantOf(payment.submittedAt, zone, undated, name, 'submittedAt'),
  };
}

/** Processing and unlisted statuses are not final: neither paid nor refused yet. */
const statusOf = (verdict: UpstreamVerdict): UpstreamTransaction['status'] =>
  verdict === 'succeeded' ? 'succeeded' : verdict === 'failed' ? 'failed' : 'pending';

/** Reloadly dates transactions as "yyyy-MM-dd HH:mm:ss" in the report's time zone; a time with an offset passes through. */
function instantOf(text: string | null, zone: string, undated: WhenUndated, name: string, field: string): string {
  const at = text === null ? null : instantOfReportTime(text, zone);
  if (at) return at.toISOString();
  if (undated !== 'refuse') return undated.at.toISOString();
  throw new UnreadableReportError(
    text === null
      ? `reloadly: ${name} of the transaction report has no ${field}`
      : `reloadly: ${name} of the transaction report has a ${field} that is not a time: ${quotedUpstreamText(text)}`,
  );
}
