import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqlEventStore } from '../../src/infrastructure/event-store/sql-event-store';
import { EVENT_LOG_SCRIPTS } from '../../src/infrastructure/event-store/sql-event-store.schema';
import { IDEMPOTENCY_SCHEMA } from '../../src/infrastructure/idempotency/idempotency.schema';
import { EmbeddedPostgresServer } from '../../src/infrastructure/sql/embedded/embedded-postgres-server';
import { applySchema } from '../../src/infrastructure/sql/migrations';
import { PostgresDatabase } from '../../src/infrastructure/sql/postgres-database';
import { SERVICE_START_TIMEOUT_MS } from '../support/timeouts';
import { eventStoreContract } from './event-store.contract';
import { UNTYPED_EVENTS } from '../support/untyped-events';

jest.setTimeout(SERVICE_START_TIMEOUT_MS);

// The embedded mode's own server (started from the npm-installed binaries in a fresh DATA_DIR), not the machine's.
eventStoreContract(
  'embedded PostgreSQL server',
  async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-embedded-contract-'));
    chmodSync(dataDir, 0o711);
    const silent = { info: () => undefined, warn: () => undefined, error: (message: string) => console.error(message) };
    const server = await EmbeddedPostgresServer.start({ dataDir, maxConnections: 20, log: silent });
    const db = new PostgresDatabase({ connectionString: server.connectionString, maxConnections: 4 });
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
        await server.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  },
  { keyBinding: true, idsAcrossStreams: false, oneDebitPerOrder: true },
);
