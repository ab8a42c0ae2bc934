/**
 * A wallet folded up to one event of its stream, kept so that a process that has not loaded the
 * wallet yet reads only the events after it. A cache of the log, never a source of truth: what
 * does not fit the log is ignored (application/wallets/wallet-snapshotting.ts).
 */
export interface WalletSnapshot {
  /** Revision of the stream's event the state is folded up to, that event included. */
  revision: number;
  /** Id of that event: ties the snapshot to the log it was taken from. */
  eventId: string;
  /** WALLET_FOLD_VERSION of the code that folded it. */
  foldVersion: number;
  /** The state as `encodeWalletState` writes it; anything, as read back. */
  state: unknown;
  /** The SnapshotSeal of all of the above and the stream's id; null when the row has none (anything, as read back). */
  seal: string | null;
}

/**
 * A keyed MAC over a snapshot's whole text: what the log cannot vouch for (the restricted keys' spends of the
 * last 24 hours) is trusted only under this service's seal (decision 0092).
 */
export interface SnapshotSeal {
  seal(text: string): string;
  verifies(text: string, seal: string): boolean;
}

export const SNAPSHOT_SEAL = Symbol('SnapshotSeal');

/** Seals nothing and trusts no snapshot: every cold wallet is folded whole (fail closed). */
export const NO_SNAPSHOT_SEAL: SnapshotSeal = { seal: () => '', verifies: () => false };

export interface WalletSnapshots {
  /** The stored snapshot of a wallet stream, or null. */
  latest(streamId: string): Promise<WalletSnapshot | null>;
  /** Stores it in place of the stored one only if its revision is higher (or none is stored). */
  save(streamId: string, snapshot: WalletSnapshot): Promise<void>;
  /** Removes the stored snapshot if it is still this one (same revision, event id and fold version). */
  discard(streamId: string, snapshot: WalletSnapshot): Promise<void>;
}

export const WALLET_SNAPSHOTS = Symbol('WalletSnapshots');

/** Snapshots every this many events of a wallet, where no setting says otherwise (the service's is WALLET_SNAPSHOT_EVERY). */
export const DEFAULT_WALLET_SNAPSHOT_EVERY = 1_000;

/** No snapshots: every cold wallet is folded from its first event. */
export const NO_WALLET_SNAPSHOTS: WalletSnapshots = {
  latest: () => Promise.resolve(null),
  save: () => Promise.resolve(),
  discard: () => Promise.resolve(),
};
