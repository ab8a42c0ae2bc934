import { Currency } from '../../domain/money/currency';
import { Money } from '../../domain/money/money';
import { Actor } from '../../domain/shared/actor';
import { Environment } from '../../domain/shared/environment';
import { WALLET_EVENTS, WalletEvent } from '../../domain/wallet/wallet.events';
import { walletStreamId } from '../../domain/wallet/wallet.stream';
import { EventStore, RecordedEvent, isOneOf } from '../ports/event-store.port';
import { signedMovement } from '../../domain/wallet/wallet-movement';

/** One wallet event as finance reads it, with the balance folded up to and including it. */
export interface WalletLedgerEntry {
  revision: number;
  /** The event's place in the global order, as `commit/prepare`. */
  position: string;
  recordedAt: string;
  occurredAt: string;
  eventType: WalletEvent['type'];
  eventId: string;
  orderId: string | null;
  /** funding or sandbox_grant for a credit, the product (topup, bill_payment) for a debit, refund for a refund. */
  kind: string;
  amount: Money;
  /** Negative for a debit. */
  signedAmount: Money;
  runningBalance: Money;
  /** The balance the event itself records; equal to the running balance in a sound ledger. */
  balanceAfter: string;
  actor: Actor;
  correlationId: string;
  reference: string | null;
  reason: string | null;
}

const PAGE_SIZE = 1000;

/** Folds a wallet's stream from its first event, page by page, so a long history is never held in memory at once. */
export async function* walletLedger(
  store: EventStore,
  partnerId: string,
  environment: Environment,
  currency: Currency,
  /** Hears the stream's events read so far after each page (for progress of long folds). */
  onPage?: (eventsRead: number) => void,
): AsyncGenerator<WalletLedgerEntry> {
  const streamId = walletStreamId(partnerId, environment);
  let balance = Money.zero(currency);
  let next = 0;
  for (;;) {
    const page = await store.readStream(streamId, next, PAGE_SIZE);
    if (page.length === 0) return;
    onPage?.(page[page.length - 1].revision + 1);
    for (const recorded of page) {
      if (recorded.revision < next) continue;
      next = recorded.revision + 1;
      if (!isOneOf(WALLET_EVENTS, recorded)) continue;
      const entry = ledgerEntry(recorded, balance, currency);
      balance = entry.runningBalance;
      yield entry;
    }
    if (page.length < PAGE_SIZE) return;
  }
}

function ledgerEntry(event: RecordedEvent<WalletEvent>, before: Money, currency: Currency): WalletLedgerEntry {
  const amount = Money.parse(event.data.amount, currency);
  if (!amount)
    throw new Error(
      `wallet event ${event.eventId} has an amount that is not ${currency}: ${event.data.amount} ${event.data.currency}`,
    );
  const signedAmount = signedMovement(event, amount);
  const common = {
    revision: event.revision,
    position: `${event.position.commit}/${event.position.prepare}`,
    recordedAt: event.recordedAt,
    occurredAt: event.metadata.occurredAt,
    eventType: event.type,
    eventId: event.eventId,
    amount,
    signedAmount,
    runningBalance: before.plus(signedAmount),
    balanceAfter: event.data.balanceAfter,
    actor: event.metadata.actor,
    correlationId: event.metadata.correlationId,
  };
  switch (event.type) {
    case 'WalletCredited':
      return { ...common, orderId: null, kind: event.data.kind, reference: event.data.reference, reason: null };
    case 'WalletDebited':
      return {
        ...common,
        orderId: event.data.orderId,
        kind: event.data.product.kind,
        reference: event.data.reference,
        reason: null,
      };
    case 'WalletRefunded':
      return { ...common, orderId: event.data.orderId, kind: 'refund', reference: null, reason: event.data.reason };
  }
}

/** A calendar day (UTC) as the half-open interval of instants it covers. */
export interface Period {
  from: number | null;
  to: number | null;
}

/** `YYYY-MM-DD` to the instant the day starts (UTC); null when it is not a calendar date. */
export function startOfDay(date: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const at = Date.parse(`${date}T00:00:00.000Z`);
  return Number.isNaN(at) || new Date(at).toISOString().slice(0, 10) !== date ? null : at;
}

export const DAY_MS = 24 * 60 * 60 * 1000;

export const isWithin = (entry: WalletLedgerEntry, period: Period): boolean => {
  const at = Date.parse(entry.occurredAt);
  return (period.from === null || at >= period.from) && (period.to === null || at < period.to);
};
