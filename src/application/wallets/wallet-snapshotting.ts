import { Logger } from '@nestjs/common';
import { isCurrency } from '../../domain/money/currency';
import { Money } from '../../domain/money/money';
import { WALLET_FOLD_VERSION, WalletState, walletDecider } from '../../domain/wallet/wallet.decider';
import { EventStream } from '../../domain/shared/event-types';
import { WalletEvent } from '../../domain/wallet/wallet.events';
import { EventStore, RecordedEvent } from '../ports/event-store.port';
import { NO_SNAPSHOT_SEAL, SnapshotSeal, WalletSnapshot, WalletSnapshots } from '../ports/wallet-snapshots.port';
import { decodeWalletState, encodeWalletState } from './wallet-state-codec';
import { FoldedWallet, WALLET_FOLD_PAGE, foldFromLog } from './wallet-fold';

export interface LoadedWallet extends FoldedWallet {
  /** Revision of the newest snapshot this load used or took; -1 when it knows of none. */
  snapshotRevision: number;
}

/**
 * Loads wallets from their latest snapshot and the events after it, and takes snapshots off the request path. A
 * snapshot that does not fit the log exactly, or whose seal fails, is ignored and the stream folded whole, so it
 * can shorten a load but never change a decision (decisions 0091, 0092, 0093).
 */
export class WalletSnapshotting {
  private readonly logger = new Logger('WalletSnapshots');
  /** The snapshot writes in flight, chained per wallet (a discard before the save that follows it). */
  private readonly writes = new Map<string, Promise<void>>();

  constructor(
    private readonly store: EventStore,
    private readonly snapshots: WalletSnapshots,
    /** A snapshot is taken once a wallet has moved this many events past the last one known. */
    private readonly every: number,
    /** Without one, no snapshot is trusted (every cold wallet is folded whole). */
    private readonly sealing: SnapshotSeal = NO_SNAPSHOT_SEAL,
    /** Events read per statement while folding (tests make it small). */
    private readonly foldPage = WALLET_FOLD_PAGE,
  ) {}

  async load(stream: EventStream<WalletEvent>): Promise<LoadedWallet> {
    const streamId = stream.id;
    const stored = await this.stored(streamId);
    if (stored) {
      // The snapshot's own event first, to check that the log still holds it there.
      const [atSnapshot] = await this.store.readStream(stream, stored.snapshot.revision, 1);
      const misfit = whyItDoesNotFit(stored.snapshot, stored.state, atSnapshot);
      if (misfit === null) {
        const from: FoldedWallet = {
          state: stored.state,
          revision: stored.snapshot.revision,
          eventId: atSnapshot.eventId,
        };
        const { wallet, folded } = await foldFromLog(this.store, stream, from, this.foldPage);
        return this.loaded(streamId, wallet, folded, stored.snapshot.revision);
      }
      this.ignore(streamId, stored.snapshot, misfit, 'warn');
    }
    const empty: FoldedWallet = { state: walletDecider.initialState, revision: -1, eventId: null };
    const { wallet, folded } = await foldFromLog(this.store, stream, empty, this.foldPage);
    return this.loaded(streamId, wallet, folded, -1);
  }

  /**
   * After the wallet moved to `wallet` (an append of this process): takes a snapshot if it is `every`
   * events past `knownSnapshot`, without waiting for it. Returns the snapshot revision now known.
   */
  afterAppend(streamId: string, wallet: FoldedWallet, knownSnapshot: number): number {
    if (wallet.revision - knownSnapshot < this.every) return knownSnapshot;
    this.take(streamId, wallet);
    return wallet.revision;
  }

  private loaded(streamId: string, wallet: FoldedWallet, folded: number, snapshotRevision: number): LoadedWallet {
    if (folded <= this.every) return { ...wallet, snapshotRevision };
    this.take(streamId, wallet);
    return { ...wallet, snapshotRevision: wallet.revision };
  }

  /** The stored snapshot if it is of this fold version and its state is readable; null otherwise. */
  private async stored(streamId: string): Promise<{ snapshot: WalletSnapshot; state: WalletState } | null> {
    let snapshot: WalletSnapshot | null;
    try {
      snapshot = await this.snapshots.latest(streamId);
    } catch (error) {
      this.logger.warn(`wallet snapshot of ${streamId} not read (${describe(error)}); the wallet is folded whole`);
      return null;
    }
    if (!snapshot) return null;
    if (snapshot.foldVersion !== WALLET_FOLD_VERSION) {
      // Expected once per wallet after a release that changed the fold.
      this.ignore(streamId, snapshot, `fold version ${snapshot.foldVersion}, not ${WALLET_FOLD_VERSION}`, 'log');
      return null;
    }
    const state = decodeWalletState(snapshot.state);
    if (!state || !Number.isSafeInteger(snapshot.revision) || snapshot.revision < 0) {
      this.ignore(
        streamId,
        snapshot,
        state ? `${snapshot.revision} is not a revision` : 'its state is unreadable',
        'warn',
      );
      return null;
    }
    const text = sealedText(streamId, snapshot, state);
    if (typeof snapshot.seal !== 'string' || !this.sealing.verifies(text, snapshot.seal)) {
      // Rows of a release before seals are expected once each; any other is a row changed outside the service.
      this.ignore(streamId, snapshot, snapshot.seal === null ? 'it has no seal' : 'its seal does not verify', 'warn');
      return null;
    }
    return { snapshot, state };
  }

  /** Removes a snapshot that was not used (if it is still the stored one), so that the next one taken replaces it. */
  private ignore(streamId: string, snapshot: WalletSnapshot, reason: string, level: 'log' | 'warn'): void {
    this.logger[level](
      `wallet snapshot of ${streamId} at revision ${snapshot.revision} ignored (${reason}); the wallet is folded whole`,
    );
    this.inBackground(streamId, snapshot.revision, () => this.snapshots.discard(streamId, snapshot));
  }

  private take(streamId: string, { state, revision, eventId }: FoldedWallet): void {
    if (eventId === null) return;
    // Encoded in the background too: states are never changed in place, so this one stays as it was.
    this.inBackground(streamId, revision, () =>
      this.snapshots.save(streamId, sealedSnapshotOf(streamId, { state, revision, eventId }, this.sealing)),
    );
  }

  /** Runs a write after the wallet's earlier ones, never awaited by a command; a failure is logged. */
  private inBackground(streamId: string, revision: number, write: () => Promise<void>): void {
    const previous = this.writes.get(streamId) ?? Promise.resolve();
    const next = previous.then(write).catch((error: unknown) => {
      this.logger.warn(`wallet snapshot of ${streamId} at revision ${revision} not written: ${describe(error)}`);
    });
    this.writes.set(streamId, next);
    void next.then(() => {
      if (this.writes.get(streamId) === next) this.writes.delete(streamId);
    });
  }
}

/** Why a snapshot cannot stand for the log whose events from its revision on are `atRevision` first; null if it can. */
function whyItDoesNotFit(
  snapshot: WalletSnapshot,
  state: WalletState,
  atRevision: RecordedEvent<WalletEvent> | undefined,
): string | null {
  if (!atRevision || atRevision.revision !== snapshot.revision) return 'the stream has no event at its revision';
  if (atRevision.eventId.toLowerCase() !== snapshot.eventId.toLowerCase())
    return `the event at its revision is ${atRevision.eventId}, not ${snapshot.eventId}`;
  const { data } = atRevision;
  const currency: unknown = data.currency;
  const recorded = isCurrency(currency) ? Money.parse(data.balanceAfter, currency) : null;
  if (!recorded || currency !== state.currency || recorded.minor !== state.balanceMinor)
    return `its balance is not the ${data.balanceAfter} ${String(currency)} recorded by the event at its revision`;
  return null;
}

/** The snapshot of a wallet folded up to an event, sealed. */
export function sealedSnapshotOf(
  streamId: string,
  wallet: { state: WalletState; revision: number; eventId: string },
  sealing: SnapshotSeal,
): WalletSnapshot {
  const { state, revision, eventId } = wallet;
  const unsealed = { revision, eventId, foldVersion: WALLET_FOLD_VERSION, state: encodeWalletState(state) };
  return { ...unsealed, seal: sealing.seal(sealedText(streamId, unsealed, state)) };
}

/**
 * What a seal covers: the stream, the revision and event the state was folded up to, the fold
 * version and the state, in one canonical text (the state as `encodeWalletState` writes it, so the
 * text does not depend on how the database returns the JSON).
 */
function sealedText(
  streamId: string,
  snapshot: Pick<WalletSnapshot, 'revision' | 'eventId' | 'foldVersion'>,
  state: WalletState,
): string {
  return JSON.stringify([
    'wallet-snapshot',
    streamId,
    snapshot.revision,
    snapshot.eventId.toLowerCase(),
    snapshot.foldVersion,
    encodeWalletState(state),
  ]);
}

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));
