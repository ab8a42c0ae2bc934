import { Currency } from '../../domain/money/currency';
import { Money } from '../../domain/money/money';
import { Environment } from '../../domain/shared/environment';
import { TransactionEvent, isAttemptFailure } from '../../domain/transaction/transaction.events';
import { WalletEvent } from '../../domain/wallet/wallet.events';
import { parseWalletStreamId } from '../../domain/wallet/wallet.stream';
import { EventStore, GlobalPosition, RecordedEvent } from '../ports/event-store.port';
import { domainEventOf } from '../shared/event-envelope';

export interface WalletFacts {
  partnerId: string;
  environment: Environment;
  currency: Currency;
  balance: Money;
  /** The first event after which the folded balance was negative, if any. */
  wentNegativeAt: string | null;
  /** Events whose recorded balanceAfter disagrees with the fold. */
  balanceAfterMismatches: string[];
}

export interface DebitFacts {
  orderId: string;
  partnerId: string;
  environment: Environment;
  amount: Money;
  idempotencyKey: string;
  placedAt: string;
}

export interface OrderFacts {
  debits: DebitFacts[];
  refunds: Money[];
  settled: number;
  failed: number;
  failedAt: string | null;
  disputed: boolean;
  /** The provider may have had the order (it acknowledged it, or an attempt was in doubt) before any failure. */
  providerMayHaveIt: boolean;
  /** A failure that rested on one attempt (not sent, refused) although the provider may have had the order. */
  failedOnAnAttempt: string | null;
}

/** One pass over the whole log, folding what the money invariants need. */
export interface LedgerWalk {
  wallets: Map<string, WalletFacts>;
  orders: Map<string, OrderFacts>;
  events: number;
  /** The position of the last event walked; null for an empty log. */
  lastPosition: GlobalPosition | null;
}

/** `onPage` hears the events walked so far after each page (for progress of long walks). */
export async function walkLedger(
  store: EventStore,
  pageSize = 1000,
  onPage?: (eventsWalked: number) => void,
): Promise<LedgerWalk> {
  const wallets = new Map<string, WalletFacts>();
  const orders = new Map<string, OrderFacts>();
  const orderFacts = (orderId: string): OrderFacts => {
    let facts = orders.get(orderId);
    if (!facts) {
      facts = {
        debits: [],
        refunds: [],
        settled: 0,
        failed: 0,
        failedAt: null,
        disputed: false,
        providerMayHaveIt: false,
        failedOnAnAttempt: null,
      };
      orders.set(orderId, facts);
    }
    return facts;
  };
  let events = 0;
  let after: GlobalPosition | null = null;
  for (;;) {
    const page: RecordedEvent[] = await store.readAll(after, { maxCount: pageSize });
    if (page.length === 0) break;
    for (const recorded of page) {
      events += 1;
      const wallet = parseWalletStreamId(recorded.streamId);
      if (wallet) foldWallet(wallets, orderFacts, wallet, recorded);
      else if (recorded.streamId.startsWith('order-')) foldOrder(orderFacts, recorded);
    }
    after = page[page.length - 1].position;
    onPage?.(events);
  }
  return { wallets, orders, events, lastPosition: after };
}

function foldWallet(
  wallets: Map<string, WalletFacts>,
  orderFacts: (orderId: string) => OrderFacts,
  wallet: { partnerId: string; environment: Environment },
  recorded: RecordedEvent,
): void {
  const event = domainEventOf<WalletEvent>(recorded);
  const amount = Money.parse(event.data.amount, event.data.currency);
  if (!amount) throw new Error(`event ${recorded.eventId} has an unreadable amount`);
  let facts = wallets.get(recorded.streamId);
  if (!facts) {
    facts = {
      ...wallet,
      currency: event.data.currency,
      balance: Money.zero(event.data.currency),
      wentNegativeAt: null,
      balanceAfterMismatches: [],
    };
    wallets.set(recorded.streamId, facts);
  }
  facts.balance = event.type === 'WalletDebited' ? facts.balance.minus(amount) : facts.balance.plus(amount);
  if (facts.balance.isNegative() && !facts.wentNegativeAt) facts.wentNegativeAt = recorded.eventId;
  if (event.data.balanceAfter !== facts.balance.toDecimal()) facts.balanceAfterMismatches.push(recorded.eventId);
  if (event.type === 'WalletDebited') {
    orderFacts(event.data.orderId).debits.push({
      orderId: event.data.orderId,
      ...wallet,
      amount,
      idempotencyKey: event.data.idempotencyKey,
      placedAt: event.data.placedAt,
    });
  } else if (event.type === 'WalletRefunded') {
    orderFacts(event.data.orderId).refunds.push(amount);
  }
}

function foldOrder(orderFacts: (orderId: string) => OrderFacts, recorded: RecordedEvent): void {
  const event = domainEventOf<TransactionEvent>(recorded);
  const facts = orderFacts(event.data.orderId);
  if (event.type === 'TransactionSettled') facts.settled += 1;
  if (event.type === 'TransactionFailed') {
    facts.failed += 1;
    facts.failedAt = event.data.failedAt;
    const basis = event.data.basis;
    if (facts.providerMayHaveIt && event.data.resolvedBy === null && basis && isAttemptFailure(basis))
      facts.failedOnAnAttempt = `${basis}: ${event.data.reason}`;
  }
  if (event.type === 'TransactionDisputed') facts.disputed = true;
  if (event.type === 'TransactionSubmitted' || event.type === 'TransactionAttemptInDoubt')
    facts.providerMayHaveIt = true;
}
