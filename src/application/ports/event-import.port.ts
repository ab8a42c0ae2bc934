import { HistoricalEvent } from './event-store.port';

/**
 * Moving a history into a store (`data import`), offered by every store adapter beside its EventStore. The
 * command opens the configured store itself (no service runs), so nothing injects it.
 */
export interface EventImport {
  /**
   * Stores events as another store recorded them, in the order given, which becomes their global order: each at
   * its own revision, which must be the next one of its stream (0 for a new stream), with its id and recorded time.
   * Not for the service's own writes: it binds no Idempotency-Key and takes no expected revision. A revision out of
   * turn throws WrongExpectedRevisionError, an id stored already DuplicateEventIdError, and nothing of the batch is
   * stored where the store can commit it as one.
   */
  importEvents(events: readonly HistoricalEvent[]): Promise<void>;
}
