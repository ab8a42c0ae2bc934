import { SqlEventStore } from '../../src/infrastructure/event-store/sql-event-store';
import { EVENT_STORE_SCHEMA } from '../../src/infrastructure/event-store/sql-event-store.schema';
import { IDEMPOTENCY_SCHEMA } from '../../src/infrastructure/idempotency/idempotency.schema';
import { applySchema } from '../../src/infrastructure/sql/migrations';
import { PgliteDatabase } from '../../src/infrastructure/sql/pglite-database';
import { eventStoreContract } from './event-store.contract';

// PGlite's CommonJS build loads Node built-ins with import(), which Jest's module sandbox refuses (and the
// worker crashes) unless Node runs with --experimental-vm-modules. Loading PGlite through Node's own loader,
// outside the sandbox, keeps this suite runnable with a plain `npx jest`.
jest.mock('@electric-sql/pglite', () => {
  const nodeModule = jest.requireActual<{ _load(request: string, parent: null, isMain: boolean): unknown }>('node:module');
  return nodeModule._load(require.resolve('@electric-sql/pglite'), null, false);
});

eventStoreContract('PGlite (in memory)', async () => {
  const db = await PgliteDatabase.open();
  await applySchema(db, [EVENT_STORE_SCHEMA, IDEMPOTENCY_SCHEMA]);
  const store = new SqlEventStore(db);
  return {
    store,
    async close() {
      await store.close();
      await db.close();
    },
  };
});
