import { EventImport } from '../ports/event-import.port';
import { EventLogDiagnostics } from '../ports/event-log-diagnostics.port';
import { EventStore, HistoricalEvent, RecordedEvent } from '../ports/event-store.port';
import { StoreNotEmptyError } from '../ports/history-move.port';

/** Every event of the store, in global order, read page by page. */
export async function* readHistory(
  store: Pick<EventStore, 'readAll'>,
  pageSize = 1_000,
): AsyncGenerator<RecordedEvent> {
  let after = null;
  for (;;) {
    const page = await store.readAll(after, { maxCount: pageSize });
    if (page.length === 0) return;
    yield* page;
    after = page[page.length - 1].position;
  }
}

export async function assertEmpty(store: EventLogDiagnostics): Promise<void> {
  const head = await store.headPosition();
  if (head !== null) throw new StoreNotEmptyError(`${await store.countEvents(null)} events`);
  const unreadable = await store.countCommittedNotYetReadable();
  if (unreadable > 0) throw new StoreNotEmptyError(`${unreadable} events being written`);
}

export interface ImportOptions {
  /** Events per importEvents call (one commit in the SQL stores). */
  batchSize: number;
  /** Told the number of events stored so far after each batch. */
  onProgress?: (imported: number) => void;
}

/**
 * Stores a history, in its order, into an empty store through the port (ids, revisions and recorded
 * times kept). Returns the number of events imported.
 */
export async function importHistory(
  store: EventImport & EventLogDiagnostics,
  events: AsyncIterable<HistoricalEvent>,
  options: ImportOptions,
): Promise<number> {
  await assertEmpty(store);
  let batch: HistoricalEvent[] = [];
  let imported = 0;
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    await store.importEvents(batch);
    imported += batch.length;
    batch = [];
    options.onProgress?.(imported);
  };
  for await (const event of events) {
    batch.push(event);
    if (batch.length >= options.batchSize) await flush();
  }
  await flush();
  return imported;
}

/** A recorded event as a historical one: what another store needs to store it again. */
export const historicalEventOf = (event: RecordedEvent): HistoricalEvent => ({
  eventId: event.eventId,
  streamId: event.streamId,
  revision: event.revision,
  type: event.type,
  schemaVersion: event.schemaVersion,
  data: event.data,
  metadata: event.metadata,
  recordedAt: event.recordedAt,
});
