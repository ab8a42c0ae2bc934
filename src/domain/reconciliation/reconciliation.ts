import { Currency, isCurrency } from '../money/currency';
import { Money } from '../money/money';

/** One transaction in a provider's report, in the provider's words mapped to ours. */
export interface UpstreamTransaction {
  /** What we sent as the transaction's own identifier: our order id (Reloadly's customIdentifier / referenceId); null when it carries none. */
  customIdentifier: string | null;
  transactionId: string;
  status: 'succeeded' | 'failed' | 'pending';
  /** Decimal text, in `currency`. */
  amount: string;
  currency: string;
  /** When the provider dates it (ISO 8601). */
  at: string;
}

/** One of our live orders routed to the provider, as the read models show it (internal status). */
export interface OwnOrder {
  orderId: string;
  partnerId: string;
  status: 'INITIATED' | 'PENDING' | 'DISPUTED' | 'SUCCESS' | 'FAILED';
  amount: string;
  currency: Currency;
  placedAt: string;
  operatorRef: string | null;
}

export type FindingKind = 'matched' | 'amount_mismatch' | 'provider_only' | 'ours_only' | 'status_mismatch';
export const MISMATCH_KINDS: readonly FindingKind[] = [
  'amount_mismatch',
  'provider_only',
  'ours_only',
  'status_mismatch',
];

export interface Finding {
  kind: FindingKind;
  /** Our order id; for a provider-only transaction, the identifier it carried (or `upstream:<transaction id>` without one). */
  orderId: string;
  partnerId: string | null;
  upstream: UpstreamTransaction | null;
  ours: OwnOrder | null;
  detail: string;
}

export interface DayWindow {
  /** Inclusive start and exclusive end of the UTC day reconciled. */
  start: Date;
  end: Date;
}

const within = (at: string, day: DayWindow): boolean => {
  const time = Date.parse(at);
  return time >= day.start.getTime() && time < day.end.getTime();
};

/** What our status means upstream: the money was taken (SUCCESS), not taken (FAILED), or we do not know yet. */
const ourSide = (status: OwnOrder['status']): 'succeeded' | 'failed' | 'open' =>
  status === 'SUCCESS' ? 'succeeded' : status === 'FAILED' ? 'failed' : 'open';

function sameAmount(upstream: UpstreamTransaction, ours: OwnOrder): boolean {
  if (!isCurrency(upstream.currency) || upstream.currency !== ours.currency) return false;
  const theirs = Money.parse(upstream.amount, upstream.currency);
  const own = Money.parse(ours.amount, ours.currency);
  return theirs !== null && own !== null && theirs.equals(own);
}

/**
 * Matches a provider's transactions with our orders by our order id (decision 0057). Both sides are read a
 * day wider each way, so an order placed just before midnight and dated upstream after it is not missing;
 * a second provider transaction for one order is provider-only, and an unknown failed one is not reported.
 */
export function reconcile(
  day: DayWindow,
  upstream: readonly UpstreamTransaction[],
  ours: readonly OwnOrder[],
): Finding[] {
  const orders = new Map(ours.map((order) => [order.orderId, order]));
  const named = new Set<string>();
  const findings: Finding[] = [];
  const sorted = [...upstream].sort(
    (a, b) => Date.parse(a.at) - Date.parse(b.at) || a.transactionId.localeCompare(b.transactionId),
  );
  for (const transaction of sorted) {
    const id = transaction.customIdentifier;
    const order = id === null ? undefined : orders.get(id);
    const secondForOrder = id !== null && named.has(id);
    if (id !== null) named.add(id);
    if (!within(transaction.at, day)) continue;
    if (!order || secondForOrder) {
      if (transaction.status === 'failed') continue;
      findings.push({
        kind: 'provider_only',
        orderId: id ?? `upstream:${transaction.transactionId}`,
        partnerId: order?.partnerId ?? null,
        upstream: transaction,
        ours: null,
        detail: order
          ? `a second upstream transaction (${transaction.transactionId}, ${transaction.status}) for order ${id}`
          : `upstream transaction ${transaction.transactionId} (${transaction.status}, ${transaction.amount} ${transaction.currency}) is not an order of ours`,
      });
      continue;
    }
    findings.push(judge(transaction, order));
  }
  for (const order of ours) {
    if (order.status !== 'SUCCESS' || named.has(order.orderId) || !within(order.placedAt, day)) continue;
    findings.push({
      kind: 'ours_only',
      orderId: order.orderId,
      partnerId: order.partnerId,
      upstream: null,
      ours: order,
      detail: `order ${order.orderId} is SUCCESS here and the provider has no transaction for it`,
    });
  }
  return findings;
}

function judge(transaction: UpstreamTransaction, order: OwnOrder): Finding {
  const base = { orderId: order.orderId, partnerId: order.partnerId, upstream: transaction, ours: order };
  const side = ourSide(order.status);
  const theirs = transaction.status === 'pending' ? 'open' : transaction.status;
  if (side !== theirs) {
    return {
      ...base,
      kind: 'status_mismatch',
      detail: `the provider says ${transaction.status}, the order is ${order.status} here`,
    };
  }
  if (side === 'succeeded' && !sameAmount(transaction, order)) {
    return {
      ...base,
      kind: 'amount_mismatch',
      detail: `the provider took ${transaction.amount} ${transaction.currency}, the order is for ${order.amount} ${order.currency}`,
    };
  }
  return { ...base, kind: 'matched', detail: 'matched' };
}
