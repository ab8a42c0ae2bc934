import { FailureBasis, ProviderOrder, ProviderOutcome } from '../../../application/ports/provider-gateway.port';
import { orderIdOfPaymentRef } from './setu-identifiers';
import { paiseOf } from './setu-money';
import { SetuFailure } from './setu-records';
import { verdictOfPayment } from './setu-outcomes';

export const SETU_POLL_AFTER_MS = 15_000;

export interface SetuPaymentRecord {
  refId: string | null;
  status: string;
  transactionId: string | null;
  paymentRefId: string | null;
  amount: string | null;
  timestamp: string | null;
  failure: SetuFailure | null;
  /** From the transactions list, which gives no failure reason: a listed failure is not confirmed. */
  listed: boolean;
}

export const failed = (reason: string, basis: FailureBasis): ProviderOutcome => ({ status: 'failed', reason, basis });

/**
 * The order's outcome from Setu's record of its payment (decision 0049). A success of another amount is a `mismatch`,
 * one without an amount stays unknown (decision 0119); a failure or open payment of another amount is unknown.
 */
export function outcomeOfRecord(record: SetuPaymentRecord, order: ProviderOrder): ProviderOutcome {
  const failure = record.failure
    ? ` (${[record.failure.type, record.failure.code, record.failure.message].filter(Boolean).join(' ')})`
    : '';
  const described = `setu payment ${record.refId ?? record.paymentRefId ?? '?'} ${record.status}${failure}${record.listed ? ' (transactions list)' : ''}`;
  const verdict = verdictOfPayment(record.status, record.failure);
  const sameAmount = record.amount !== null && paiseOf(record.amount) === paiseOf(order.amount);
  const unknown = (reason: string): ProviderOutcome => ({ status: 'unknown', reason, retryAfterMs: null });
  if (record.amount === null && verdict === 'succeeded')
    return unknown(`${described} gives no amount to check against the order's ${order.amount} INR`);
  if (record.amount !== null && !sameAmount) {
    const amounts = `is of ${record.amount} INR, not the order's ${order.amount} INR`;
    if (verdict !== 'succeeded') return unknown(`${described} ${amounts}: it is neither settled nor failed on`);
    const transactionId = record.transactionId ?? record.refId ?? '';
    return {
      status: 'mismatch',
      reason: `${described} ${amounts}`,
      operatorRef: transactionId || 'setu',
      upstream: {
        customIdentifier: orderIdOfPaymentRef(record.paymentRefId) ?? order.orderId,
        transactionId,
        status: 'succeeded',
        amount: record.amount,
        currency: 'INR',
        at: isoOf(record.timestamp) ?? new Date(order.placedAt).toISOString(),
      },
    };
  }
  switch (verdict) {
    case 'succeeded':
      return { status: 'succeeded', operatorRef: record.transactionId ?? record.refId ?? 'setu' };
    case 'failed':
      // The list writes Error without a reason: whether the failure is confirmed is not known from it.
      return record.listed
        ? unknown(`${described}: the failure is read again by its refId`)
        : failed(described, 'provider_record');
    case 'processing':
    case 'unknown':
      return { status: 'pending', providerReference: record.refId, pollAfterMs: SETU_POLL_AFTER_MS };
  }
}

/** Setu's timestamp (ISO 8601 with its offset) as an instant in UTC; null when it cannot be read. */
function isoOf(timestamp: string | null): string | null {
  if (!timestamp || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(timestamp)) return null;
  const at = Date.parse(timestamp);
  return Number.isNaN(at) ? null : new Date(at).toISOString();
}
