import { Currency } from '../../domain/money/currency';
import { Money } from '../../domain/money/money';
import { Environment } from '../../domain/shared/environment';
import { ScopedKeyCreated } from '../../domain/partner/partner.events';
import { WalletState, keySpentWithin, walletDecider } from '../../domain/wallet/wallet.decider';
import { TRANSACTION_EVENTS, TransactionEvent, isAttemptFailure } from '../../domain/transaction/transaction.events';
import { WALLET_EVENTS, WalletEvent } from '../../domain/wallet/wallet.events';
import { parseWalletStreamId } from '../../domain/wallet/wallet.stream';
import { signedMovement } from '../../domain/wallet/wallet-movement';
import { mayHaveReachedProvider } from '../../domain/transaction/provider-may-have-it';
import { EventStore, GlobalPosition, RecordedEvent, comparePositions, oneOf } from '../ports/event-store.port';
import { ServiceError } from '../shared/service-error';

export interface WalletFacts {
  partnerId: string;
  environment: Environment;
  currency: Currency;
  balance: Money;
  /** The first event after which the folded balance was negative, if any. */
  wentNegativeAt: string | null;
  /** Events whose recorded balanceAfter disagrees with the fold. */
  balanceAfterMismatches: string[];
  /** The wallet folded by its decider (the restricted keys' spends of the last 24 hours included), and its last revision. */
  state: WalletState;
  revision: number;
  /** Each debit placed with a restricted key, with what the key had spent in the 24 hours before it. */
  scopedDebits: ScopedDebitFacts[];
}

export interface ScopedDebitFacts {
  eventId: string;
  orderId: string;
  keyId: string;
  amount: Money;
  placedAt: string;
  /** The key's spend in the 24 hours before this debit, refunds given back, as the decider counts it. */
  spentBefore: Money;
}

/** A restricted key's caps as its creation recorded them. */
export interface KeyTermsFacts {
  partnerId: string;
  environment: Environment;
  perOrderMax: string | null;
  dailyMax: string | null;
  currency: Currency;
}

export interface DebitFacts {
  orderId: string;
  partnerId: string;
  environment: Environment;
  amount: Money;
  idempotencyKey: string;
  placedAt: string;
}

export interface OrderLedgerFacts {
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
  orders: Map<string, OrderLedgerFacts>;
  /** Restricted keys by id, as created. */
  keys: Map<string, KeyTermsFacts>;
  events: number;
  /** The position of the last event walked; null for an empty log. */
  lastPosition: GlobalPosition | null;
}

export interface LedgerWalkOptions {
  pageSize?: number;
  /** Hears the events walked so far after each page (for progress of long walks). */
  onPage?: (eventsWalked: number) => void;
  /**
   * The walk does not end before this position (the log's committed head when the walk was asked
   * for): events committed behind a transaction still open elsewhere are waited for, not missed.
   */
  through?: GlobalPosition | null;
}

/** How long a walk waits for committed events to become readable before it gives up. */
export const READABLE_WAIT_LIMIT_MS = 60_000;

export async function walkLedger(store: EventStore, options: LedgerWalkOptions = {}): Promise<LedgerWalk> {
  const { pageSize = 1000, onPage, through = null } = options;
  const wallets = new Map<string, WalletFacts>();
  const orders = new Map<string, OrderLedgerFacts>();
  const orderFacts = (orderId: string): OrderLedgerFacts => {
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
  const keys = new Map<string, KeyTermsFacts>();
  let events = 0;
  let after: GlobalPosition | null = null;
  const waitForReadable = readableWaiter(through);
  for (;;) {
    const page: RecordedEvent[] = await store.readAll(after, { maxCount: pageSize });
    if (page.length === 0) {
      if (await waitForReadable(after)) continue;
      break;
    }
    for (const recorded of page) {
      events += 1;
      const wallet = parseWalletStreamId(recorded.streamId);
      if (wallet) foldWallet(wallets, orderFacts, wallet, oneOf(WALLET_EVENTS, recorded));
      else if (recorded.streamId.startsWith('order-')) foldOrder(orderFacts, oneOf(TRANSACTION_EVENTS, recorded));
      else if (recorded.type === 'ScopedKeyCreated') noteKey(keys, recorded);
    }
    after = page[page.length - 1].position;
    onPage?.(events);
  }
  return { wallets, orders, keys, events, lastPosition: after };
}

/**
 * Before `through`, an empty page means events committed behind a transaction still open: waits a little and
 * says to read again (true), up to READABLE_WAIT_LIMIT_MS in all; at or past it, says the walk is done (false).
 */
function readableWaiter(through: GlobalPosition | null): (walkedTo: GlobalPosition | null) => Promise<boolean> {
  let waitedMs = 0;
  let pauseMs = 2;
  return async (walkedTo) => {
    if (!through || (walkedTo && comparePositions(walkedTo, through) >= 0)) return false;
    if (waitedMs >= READABLE_WAIT_LIMIT_MS)
      throw new ServiceError(
        'service_unavailable',
        `events committed before the check are still not readable after ${READABLE_WAIT_LIMIT_MS / 1000} s: ` +
          'a transaction on the event database has been open that long; try again when it ends',
      );
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    waitedMs += pauseMs;
    pauseMs = Math.min(pauseMs * 2, 100);
    return true;
  };
}

function foldWallet(
  wallets: Map<string, WalletFacts>,
  orderFacts: (orderId: string) => OrderLedgerFacts,
  wallet: { partnerId: string; environment: Environment },
  event: RecordedEvent<WalletEvent>,
): void {
  const amount = Money.parse(event.data.amount, event.data.currency);
  if (!amount) throw new Error(`event ${event.eventId} has an unreadable amount`);
  let facts = wallets.get(event.streamId);
  if (!facts) {
    facts = {
      ...wallet,
      currency: event.data.currency,
      balance: Money.zero(event.data.currency),
      wentNegativeAt: null,
      balanceAfterMismatches: [],
      state: walletDecider.initialState,
      revision: -1,
      scopedDebits: [],
    };
    wallets.set(event.streamId, facts);
  }
  if (event.type === 'WalletDebited' && event.data.scopedKeyId) {
    const { scopedKeyId: keyId, orderId, placedAt } = event.data;
    facts.scopedDebits.push({
      eventId: event.eventId,
      orderId,
      keyId,
      amount,
      placedAt,
      spentBefore: keySpentWithin(facts.state, keyId, placedAt, amount.currency),
    });
  }
  facts.state = walletDecider.evolve(facts.state, event);
  facts.revision = event.revision;
  facts.balance = facts.balance.plus(signedMovement(event, amount));
  if (facts.balance.isNegative() && !facts.wentNegativeAt) facts.wentNegativeAt = event.eventId;
  if (event.data.balanceAfter !== facts.balance.toDecimal()) facts.balanceAfterMismatches.push(event.eventId);
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

function noteKey(keys: Map<string, KeyTermsFacts>, event: RecordedEvent<ScopedKeyCreated>): void {
  const { keyId, partnerId, environment, perOrderMax, dailyMax, currency } = event.data;
  keys.set(keyId, { partnerId, environment, perOrderMax, dailyMax, currency });
}

function foldOrder(orderFacts: (orderId: string) => OrderLedgerFacts, event: RecordedEvent<TransactionEvent>): void {
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
  if (mayHaveReachedProvider(event)) facts.providerMayHaveIt = true;
}
