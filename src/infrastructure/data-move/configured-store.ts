import { LOG_EVENT_DECODER } from '../../application/ports/event-decoder.port';
import { EventImport } from '../../application/ports/event-import.port';
import { EventLogDiagnostics } from '../../application/ports/event-log-diagnostics.port';
import { EventStore } from '../../application/ports/event-store.port';
import { ServiceConfig } from '../../config/service-config';
import { EventStoreDbEventStore } from '../event-store/eventstoredb-event-store';
import { SqlEventStore } from '../event-store/sql-event-store';
import { openDatabase } from '../open-database';
import { SqlDatabase } from '../sql/sql-database';

type MovableEventStore = EventStore & EventImport & EventLogDiagnostics;

interface ConfiguredStore {
  db: SqlDatabase;
  store: MovableEventStore;
  close: () => Promise<void>;
}

/** The configured event store and service database, opened as the service opens them, for moving the data of a stopped service. */
export async function openConfiguredStore(config: ServiceConfig): Promise<ConfiguredStore> {
  const db = await openDatabase(config);
  let store: MovableEventStore;
  try {
    store =
      config.eventStore === 'eventstoredb'
        ? await EventStoreDbEventStore.connect(config.eventStoreConnectionString ?? '', LOG_EVENT_DECODER, {
            watchRemoteAppends: false,
          })
        : new SqlEventStore(db, LOG_EVENT_DECODER);
  } catch (error) {
    await db.close();
    throw error;
  }
  return {
    db,
    store,
    async close() {
      await store.close();
      await db.close();
    },
  };
}
