import { WalletState, walletDecider } from '../../domain/wallet/wallet.decider';
import { EventStream } from '../../domain/shared/event-types';
import { WalletEvent } from '../../domain/wallet/wallet.events';
import { EventStore, RecordedEvent } from '../ports/event-store.port';

/** A wallet folded up to an event of its stream. */
export interface FoldedWallet {
  state: WalletState;
  /** Revision of the last event folded; -1 for a wallet without events. */
  revision: number;
  /** Id of that event; null for a wallet without events. */
  eventId: string | null;
}

/**
 * Events read per statement when a wallet is brought up to date from the log. A wallet's history has no bound (a
 * busy partner's grows by a million debits a year) and a cold wallet without a usable snapshot is folded from its
 * first event, so it is read a page at a time: the process holds at most one page, not the history (decision 0171).
 */
export const WALLET_FOLD_PAGE = 1_000;

function foldOnto(wallet: FoldedWallet, events: readonly RecordedEvent<WalletEvent>[]): FoldedWallet {
  let { state, revision, eventId } = wallet;
  for (const event of events) {
    state = walletDecider.evolve(state, event);
    revision = event.revision;
    eventId = event.eventId;
  }
  return { state, revision, eventId };
}

/** `wallet` with the stream's events after it folded onto it, read `pageSize` at a time, and how many there were. */
export async function foldFromLog(
  store: EventStore,
  stream: EventStream<WalletEvent>,
  wallet: FoldedWallet,
  pageSize = WALLET_FOLD_PAGE,
): Promise<{ wallet: FoldedWallet; folded: number }> {
  let current = wallet;
  let folded = 0;
  let next = wallet.revision + 1;
  for (;;) {
    const page = await store.readStream(stream, next, pageSize);
    current = foldOnto(current, page);
    folded += page.length;
    if (page.length < pageSize) return { wallet: current, folded };
    next = page[page.length - 1].revision + 1;
  }
}
