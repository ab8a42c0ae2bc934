import { SqlEventStore } from '../../src/infrastructure/event-store/sql-event-store';
import { EVENT_LOG_SCRIPTS } from '../../src/infrastructure/event-store/sql-event-store.schema';
import { IDEMPOTENCY_SCHEMA } from '../../src/infrastructure/idempotency/idempotency.schema';
import { applySchema } from '../../src/infrastructure/sql/migrations';
import { PostgresDatabase } from '../../src/infrastructure/sql/postgres-database';
import { createTestDatabase } from '../support/postgres-test-database';
import { eventStoreContract } from './event-store.contract';
import { UNTYPED_EVENTS } from '../support/untyped-events';

eventStoreContract(
  'PostgreSQL',
  async () => {
    const database = await createTestDatabase('es_contract');
    const db = new PostgresDatabase({ connectionString: database.connectionString, maxConnections: 4 });
    await applySchema(db, [...EVENT_LOG_SCRIPTS, IDEMPOTENCY_SCHEMA]);
    const store = new SqlEventStore(db, UNTYPED_EVENTS);
    return {
      store,
      diagnostics: store,
      byCorrelation: store,
      importer: store,
      keyBinding: store,
      async close() {
        await store.close();
        await db.close();
        await database.drop();
      },
    };
  },
  { keyBinding: true, idsAcrossStreams: false, oneDebitPerOrder: true },
);
