import { EventImport } from './event-import.port';
import { EventLogDiagnostics } from './event-log-diagnostics.port';
import { EventStore, GlobalPosition, HistoricalEvent, RecordedEvent } from './event-store.port';
import { KeyBinding } from './key-binding-append.port';
import { Job } from './job-queue.port';
import { BackOfficeAction } from './back-office-action-log.port';

/** Where an import reads its events: an export file, or the PGlite data folder of an earlier release. */
export type HistorySourceRef = { kind: 'history-file'; path: string } | { kind: 'pglite-folder'; path: string };

/** A history to import: counted (and checked) first, then read in its order. */
export interface HistorySource {
  /** The number of events; a source that cannot be read whole fails here, before anything is written. */
  count(): Promise<number>;
  events(): AsyncIterable<HistoricalEvent>;
  close(): Promise<void>;
}

export interface HistorySources {
  open(source: HistorySourceRef): Promise<HistorySource>;
}

/** What an imported history leaves for the service to do, written in one commit after the import. */
export interface ImportedWork {
  /** The log's last position: the reactions' checkpoint, set there without running them. */
  head: GlobalPosition | null;
  /** The jobs for the work the history leaves undone. */
  jobs: Job[];
  /** The Idempotency-Keys the history still binds. */
  bindings: KeyBinding[];
}

/** The configured store and its service database, opened without the service to move a history in or out. */
export interface OpenedHistoryStore {
  /** The store, with its diagnostics (counts, head) and its import. */
  readonly store: EventStore & EventLogDiagnostics & EventImport;
  /** Refuses (StoreNotEmptyError) a service database that holds read models built from another history. */
  assertNothingDerived(): Promise<void>;
  /** Drops the wallet snapshots: beside an empty store they describe another history. */
  forgetWalletSnapshots(): Promise<void>;
  adoptImportedWork(work: ImportedWork): Promise<void>;
  /**
   * Applies the next events of the log, in its order, into the serving read models and moves their checkpoint to
   * the last (not blue/green: an empty store has no serving version to keep answering meanwhile).
   */
  applyToReadModels(events: readonly RecordedEvent[]): Promise<void>;
  /** Appends to the back-office action log of the service database (an export is recorded there). */
  recordAction(action: BackOfficeAction): Promise<void>;
  /** Closes the store and the database (and what was started to open them). */
  close(): Promise<void>;
}

export interface HistoryStores {
  /** Refuses at once (ConfiguredStoreUnavailableError) to write into a store a running service owns. */
  refuseWhileServiceRuns(): void;
  /** Opens the configured store: to read a history out of it, or to write one into it. */
  open(access: 'read' | 'write'): Promise<OpenedHistoryStore>;
}

/** The target of an import holds events, or what was derived from others: an import never mixes two histories. */
export class StoreNotEmptyError extends Error {
  constructor(detail: string) {
    super(`the configured store is not empty (${detail}); import only into an empty one`);
    this.name = 'StoreNotEmptyError';
  }
}

/** The configured store cannot be opened (or not now: a service runs on it). */
export class ConfiguredStoreUnavailableError extends Error {
  constructor(eventStore: string, cause: unknown) {
    super(
      `cannot open the configured store (EVENT_STORE=${eventStore}): ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
    this.name = 'ConfiguredStoreUnavailableError';
  }
}
