import { HistoricalEvent } from './event-store.port';

/**
 * Moving a history into a store (`data import`), offered by every store adapter beside its EventStore. The
 * command opens the configured store itself (no service runs), so nothing injects it.
 */
export interface EventImport {
  /**
   * Stores another store's events in the order given, each at the next revision of its stream, with its id and time;
   * not for the service's own writes. Out-of-turn revisions and ids their stream holds throw, and nothing of the batch is stored
   * where the store can commit it as one.
   */
  importEvents(events: readonly HistoricalEvent[]): Promise<void>;
}
