import { Finding } from '../../domain/reconciliation/reconciliation';
import { TransactionState } from '../../domain/transaction/transaction.decider';
import { TransactionEvent } from '../../domain/transaction/transaction.events';

export interface MismatchFinding {
  provider: string;
  day: string;
  finding: Finding;
}

/** A success that does not match its order is a finding for finance at once, beside the hold. */
export function mismatchFindings(events: readonly TransactionEvent[], state: TransactionState): MismatchFinding[] {
  const order = state.order;
  const provider = order?.route?.provider;
  if (!order || !provider) return [];
  const found: MismatchFinding[] = [];
  for (const event of events) {
    if (event.type !== 'TransactionSuccessMismatched') continue;
    const { transactionId, amount, currency, reason } = event.data;
    // Filed under the day the provider dates its transaction, as that day's reconciliation would file it.
    const at = event.data.upstreamAt ?? event.data.at;
    const finding: Finding = {
      kind: 'amount_mismatch',
      orderId: order.orderId,
      partnerId: order.partnerId,
      upstream: { customIdentifier: order.orderId, transactionId, status: 'succeeded', amount, currency, at },
      ours: {
        orderId: order.orderId,
        partnerId: order.partnerId,
        status: 'DISPUTED',
        amount: order.amount,
        currency: order.currency,
        placedAt: order.placedAt,
        operatorRef: null,
      },
      detail: `the provider's success does not match the order: ${reason}`,
    };
    found.push({ provider, day: at.slice(0, 10), finding });
  }
  return found;
}
