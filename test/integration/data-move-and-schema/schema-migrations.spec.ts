import { randomUUID } from 'node:crypto';
import { DuplicateEventIdError, WrongExpectedRevisionError } from '../../../src/application/ports/event-store.port';
import { SqlEventStore } from '../../../src/infrastructure/event-store/sql-event-store';
import { PROJECTION_ADMIN } from '../../../src/application/ports/projections.port';
import { migrateServiceDatabase } from '../../../src/infrastructure/open-database';
import { SqlProjectionAdmin } from '../../../src/infrastructure/projections/sql-projection-admin';
import { READ_MODEL_TABLES } from '../../../src/infrastructure/read-models/read-model-projections';
import { SCHEMA_MIGRATIONS } from '../../../src/infrastructure/schema/schema-migrations';
import { applySchema } from '../../../src/infrastructure/sql/migrations';
import { PostgresDatabase } from '../../../src/infrastructure/sql/postgres-database';
import { MigrationHistoryError, MigrationStepError, migrate } from '../../../src/infrastructure/sql/schema-history';
import { SqlDatabase } from '../../../src/infrastructure/sql/sql-database';
import { sqlOf } from '../../support/ledger';
import { createTestDatabase, TestDatabase } from '../../support/postgres-test-database';
import { SANDBOX_PHONES, TestService } from '../../support/test-service';
import { UNTYPED_EVENTS } from '../../support/untyped-events';
import { debitOf, eventOfOrder, newEvent } from '../../contract/event-store-contract-support';

interface Opened {
  db: SqlDatabase;
  url: string;
  close(): Promise<void>;
}

async function open(prefix: string): Promise<Opened> {
  const database: TestDatabase = await createTestDatabase(prefix);
  const db = new PostgresDatabase({
    connectionString: database.connectionString,
    maxConnections: 4,
    applicationName: 'test',
  });
  return {
    db,
    url: database.connectionString,
    close: async () => {
      await db.close();
      await database.drop();
    },
  };
}

/** Everything about the tables of the public schema that a query could tell apart. */
async function catalog(db: SqlDatabase): Promise<Record<string, unknown>> {
  return {
    columns: await db.query(
      `SELECT table_name, ordinal_position, column_name, data_type, is_nullable, column_default, character_maximum_length, numeric_precision, numeric_scale
         FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
    ),
    indexes: await db.query(
      `SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY tablename, indexname`,
    ),
    constraints: await db.query(
      `SELECT rel.relname AS table_name, con.conname, pg_get_constraintdef(con.oid) AS definition
         FROM pg_constraint con JOIN pg_class rel ON rel.oid = con.conrelid JOIN pg_namespace ns ON ns.oid = rel.relnamespace
        WHERE ns.nspname = 'public' ORDER BY rel.relname, con.conname`,
    ),
    storage: await db.query(
      `SELECT c.relname, c.relkind, c.reloptions FROM pg_class c JOIN pg_namespace ns ON ns.oid = c.relnamespace
        WHERE ns.nspname = 'public' AND c.relkind IN ('r', 'S') ORDER BY c.relname`,
    ),
    readModels: await db.query('SELECT name, version, schema_version FROM projection_versions ORDER BY name'),
  };
}

const history = async (db: SqlDatabase) =>
  (
    await db.query<{ version: number; name: string }>('SELECT version, name FROM schema_migrations ORDER BY version')
  ).map((row) => `${row.version} ${row.name}`);

describe('schema migrations', () => {
  const opened: Opened[] = [];
  const fresh = async (prefix: string): Promise<Opened> => {
    const database = await open(prefix);
    opened.push(database);
    return database;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((database) => database.close()));
  });

  it('gives a database migrated one step at a time, with rows in its tables, the schema of one migrated at once', async () => {
    const stepwise = await fresh('migrate_steps');
    const atOnce = await fresh('migrate_once');

    await migrateServiceDatabase(stepwise.db, 1);
    expect(await history(stepwise.db)).toEqual(['1 baseline']);
    await stepwise.db.query(
      `INSERT INTO projection_versions (name, version, rebuilt_at, rebuild_id) VALUES ('balances', 3, now(), 'rbd_old')`,
    );
    for (let step = 2; step <= SCHEMA_MIGRATIONS.length; step += 1) {
      expect(await migrateServiceDatabase(stepwise.db, step)).toEqual([step]);
    }
    expect(await migrateServiceDatabase(stepwise.db)).toEqual([]);
    await stepwise.db.query(
      `UPDATE projection_versions SET version = 1, rebuilt_at = NULL, rebuild_id = NULL WHERE name = 'balances'`,
    );

    expect(await migrateServiceDatabase(atOnce.db)).toEqual(SCHEMA_MIGRATIONS.map((migration) => migration.version));
    expect(await history(stepwise.db)).toEqual(await history(atOnce.db));
    expect(await catalog(stepwise.db)).toEqual(await catalog(atOnce.db));
  });

  it('adopts a database of the release without a history as it is: rows kept, same schema as a new one, read models at version 1', async () => {
    const previous = await fresh('migrate_adopt');
    const created = await fresh('migrate_new');
    // What that release ran at every start: its scripts, read models included, without a history table.
    await applySchema(previous.db, [
      { name: 'baseline', sql: SCHEMA_MIGRATIONS[0].sql },
      ...READ_MODEL_TABLES.map((projection) => projection.schema),
    ]);
    await previous.db.query(`INSERT INTO rm_balances VALUES ('ptn_a', 'sandbox', 'INR', 1000, 0, now())`);
    await previous.db.query(`INSERT INTO jobs (job_id, kind, payload, due_at) VALUES ('job_1', 'submit', '{}', now())`);

    expect(await migrateServiceDatabase(previous.db)).toEqual(SCHEMA_MIGRATIONS.map((migration) => migration.version));
    await migrateServiceDatabase(created.db);

    const { readModels: adopted, ...adoptedSchema } = await catalog(previous.db);
    const { readModels: made, ...madeSchema } = await catalog(created.db);
    expect(adoptedSchema).toEqual(madeSchema);
    // The adopted tables are recorded at version 1, a new database's at the code's versions; a read
    // model whose code is past version 1 is then rebuilt blue/green at start.
    expect(adopted).toEqual((made as { name: string }[]).map((row) => ({ ...row, schema_version: 1 })));
    expect(made).toEqual(
      expect.arrayContaining(
        READ_MODEL_TABLES.map((projection) =>
          expect.objectContaining({ name: projection.name, schema_version: projection.schemaVersion }),
        ),
      ),
    );
    expect(await previous.db.query('SELECT partner_id, available::text FROM rm_balances')).toEqual([
      { partner_id: 'ptn_a', available: '1000.0000' },
    ]);
    expect(await previous.db.query('SELECT job_id FROM jobs')).toEqual([{ job_id: 'job_1' }]);
  });

  it('moves a log written in the layout before migration 16 (a stream table beside the events) to the stream-revision key', async () => {
    const previous = await fresh('migrate_log');
    await migrateServiceDatabase(previous.db, 15);
    // Written as that layout did: the stream's row carries its revision, each event its own global position.
    const [first, second] = [randomUUID(), randomUUID()];
    await previous.db.transaction(async (tx) => {
      await tx.query(`INSERT INTO es_streams (stream_id, revision) VALUES ('old-stream', 1)`);
      await tx.query(
        `INSERT INTO es_events (event_id, stream_id, stream_revision, event_type, schema_version, data, metadata)
         VALUES ($1::uuid, 'old-stream', 0, 'Opened', 1, '{}', $3::jsonb), ($2::uuid, 'old-stream', 1, 'Noted', 1, '{}', $3::jsonb)`,
        [first, second, JSON.stringify(newEvent('Opened').metadata)],
      );
    });

    expect(await migrateServiceDatabase(previous.db, 16)).toEqual([16]);
    const store = new SqlEventStore(previous.db, UNTYPED_EVENTS);
    const read = await store.readStream('old-stream');
    expect(read.map((event) => [event.eventId, event.revision, event.type])).toEqual([
      [first, 0, 'Opened'],
      [second, 1, 'Noted'],
    ]);
    // The stream goes on from its last event, and the old events still count for the checks.
    await expect(store.append('old-stream', [newEvent('Late')], 0)).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    expect(await store.append('old-stream', [{ ...newEvent('Noted'), eventId: second }], 0)).toEqual(
      expect.objectContaining({ deduplicated: true, nextRevision: 1 }),
    );
    const next = newEvent('Next');
    expect(await store.append('old-stream', [next], 1)).toEqual(
      expect.objectContaining({ deduplicated: false, nextRevision: 2 }),
    );
    expect((await store.readAll(null, { maxCount: 10 })).map((event) => event.eventId)).toEqual([
      first,
      second,
      next.eventId,
    ]);
    expect(await previous.db.query(`SELECT to_regclass('es_streams') AS streams`)).toEqual([{ streams: null }]);
  });

  it('moves a log whose event ids were unique across it (before migration 18) to ids unique per stream', async () => {
    const previous = await fresh('migrate_ids');
    await migrateServiceDatabase(previous.db, 17);
    const opened = newEvent('Opened');
    await new SqlEventStore(previous.db, UNTYPED_EVENTS).append('wallet-old', [opened], 'no_stream');

    expect(await migrateServiceDatabase(previous.db, 18)).toEqual([18]);
    const store = new SqlEventStore(previous.db, UNTYPED_EVENTS);
    // A repeat in its stream is still found by the new key, and is a no-op.
    expect(await store.append('wallet-old', [opened], 'any')).toEqual(
      expect.objectContaining({ deduplicated: true, nextRevision: 0 }),
    );
    expect(await store.append('order-new', [opened], 'no_stream')).toEqual(
      expect.objectContaining({ deduplicated: false, nextRevision: 0 }),
    );
    expect((await store.readStream('wallet-old')).map((event) => event.eventId)).toEqual([opened.eventId]);
    expect(
      await previous.db.query(
        `SELECT conname, pg_get_constraintdef(oid) AS definition FROM pg_constraint
          WHERE conrelid = 'es_events'::regclass AND contype = 'u' ORDER BY conname`,
      ),
    ).toEqual([{ conname: 'es_events_stream_event_id_unique', definition: 'UNIQUE (stream_id, event_id)' }]);
  });

  it('moves a log whose event ids were unique in every stream (before migration 19) to ids unique outside orders', async () => {
    const previous = await fresh('migrate_order_ids');
    await migrateServiceDatabase(previous.db, 18);
    const debited = newEvent('Debited');
    const initiated = newEvent('Initiated');
    const before = new SqlEventStore(previous.db, UNTYPED_EVENTS);
    await before.append('wallet-old', [debited], 'no_stream');
    await before.append('order-old', [initiated], 'no_stream');

    expect(await migrateServiceDatabase(previous.db, 19)).toEqual([19]);
    const store = new SqlEventStore(previous.db, UNTYPED_EVENTS);
    // Outside orders a repeat is still found by the index, at any revision, and is a no-op.
    expect(await store.append('wallet-old', [debited], 'any')).toEqual(
      expect.objectContaining({ deduplicated: true, nextRevision: 0 }),
    );
    // An order's stream relies on its expected revision: a repeat at the same place is a no-op.
    expect(await store.append('order-old', [initiated], 'no_stream')).toEqual(
      expect.objectContaining({ deduplicated: true, nextRevision: 0 }),
    );
    // One id twice in one append is refused in any stream, before anything is written.
    const twice = newEvent('Twice');
    await expect(store.append('order-old', [twice, twice], 0)).rejects.toBeInstanceOf(DuplicateEventIdError);
    expect((await store.readStream('order-old')).map((event) => event.eventId)).toEqual([initiated.eventId]);
    expect(
      await previous.db.query(
        `SELECT indexdef FROM pg_indexes WHERE tablename = 'es_events' AND indexname = 'es_events_stream_event_id_unique'`,
      ),
    ).toEqual([
      {
        indexdef: expect.stringMatching(
          /UNIQUE INDEX es_events_stream_event_id_unique .*\(stream_id, event_id\) WHERE \(stream_id !~~ 'order-%'::text\)$/,
        ),
      },
    ]);
  });

  it('moves a log to one debit per order (migration 20): a repeat is a no-op, a second debit is refused', async () => {
    const previous = await fresh('migrate_debits');
    await migrateServiceDatabase(previous.db, 19);
    const debited = debitOf('ord_old');
    await new SqlEventStore(previous.db, UNTYPED_EVENTS).append('wallet-old', [debited], 'no_stream');

    expect(await migrateServiceDatabase(previous.db, 20)).toEqual([20]);
    const store = new SqlEventStore(previous.db, UNTYPED_EVENTS);
    // The same debit again, after the wallet moved on, is found by its order and is a no-op.
    await store.append('wallet-old', [eventOfOrder('WalletRefunded', 'ord_old')], 0);
    expect(await store.append('wallet-old', [debited], 'any')).toEqual(
      expect.objectContaining({ deduplicated: true, nextRevision: 1 }),
    );
    // Another debit of the same order, under another id or in another wallet, is refused and stores nothing.
    await expect(store.append('wallet-old', [debitOf('ord_old')], 1)).rejects.toBeInstanceOf(DuplicateEventIdError);
    await expect(store.append('wallet-other', [debitOf('ord_old')], 'no_stream')).rejects.toBeInstanceOf(
      DuplicateEventIdError,
    );
    expect((await store.readStream('wallet-old')).map((event) => event.type)).toEqual([
      'WalletDebited',
      'WalletRefunded',
    ]);
    expect(await store.readStream('wallet-other')).toEqual([]);
    // Other events keep their ids unique per stream.
    const credited = newEvent('WalletCredited');
    await store.append('wallet-old', [credited], 1);
    expect(await store.append('wallet-old', [credited], 'any')).toEqual(
      expect.objectContaining({ deduplicated: true, nextRevision: 2 }),
    );
    // The order's events are still read by its id: the debit through its own index, the refund through the other.
    expect((await store.readByCorrelationId('ord_old')).map((event) => event.type)).toEqual([
      'WalletDebited',
      'WalletRefunded',
    ]);
    expect(
      await previous.db.query(
        `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'es_events' AND indexdef LIKE '%WalletDebited%'
          ORDER BY indexname`,
      ),
    ).toEqual([
      {
        indexname: 'es_events_by_correlation_outside_orders',
        indexdef: expect.stringContaining(
          `WHERE ((stream_id !~~ 'order-%'::text) AND (event_type <> 'WalletDebited'::text))`,
        ),
      },
      {
        indexname: 'es_events_one_debit_per_order',
        indexdef: expect.stringMatching(/^CREATE UNIQUE INDEX .*WHERE \(event_type = 'WalletDebited'::text\)$/),
      },
      {
        indexname: 'es_events_stream_event_id_unique',
        indexdef: expect.stringMatching(
          /^CREATE UNIQUE INDEX .*\(stream_id, event_id\) WHERE .*'WalletDebited'::text\)\)$/,
        ),
      },
    ]);
  });

  it('refuses to carry a log with two debits of one order (a double charge) to migration 20', async () => {
    const previous = await fresh('migrate_double_debit');
    await migrateServiceDatabase(previous.db, 19);
    const twice = [debitOf('ord_twice'), debitOf('ord_twice')];
    await new SqlEventStore(previous.db, UNTYPED_EVENTS).append('wallet-twice', twice, 'no_stream');

    // The operator is told which step failed, on which index, and for which order.
    const failed = await migrateServiceDatabase(previous.db, 20).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(MigrationStepError);
    expect((failed as Error).message).toMatch(
      /^schema migration 20 \(one-debit-per-order\) failed, and nothing of it was applied: .*es_events_one_debit_per_order.*\(Key .*=\(ord_twice\) is duplicated\.\)$/,
    );
    // Nothing of the step stays: the log keeps the indexes it had, and the step is not recorded.
    expect(
      await previous.db.query(`SELECT indexname FROM pg_indexes WHERE indexname = 'es_events_one_debit_per_order'`),
    ).toEqual([]);
    expect(await migrateServiceDatabase(previous.db, 19)).toEqual([]);
  });

  it('applies each step once when several processes start together', async () => {
    const shared = await fresh('migrate_race');
    const others = [1, 2, 3].map(
      () => new PostgresDatabase({ connectionString: shared.url, maxConnections: 1, applicationName: 'test' }),
    );
    try {
      const applied = await Promise.all(others.map((db) => migrateServiceDatabase(db)));
      expect(applied.flat().sort((a, b) => a - b)).toEqual(SCHEMA_MIGRATIONS.map((migration) => migration.version));
    } finally {
      await Promise.all(others.map((db) => db.close()));
    }
    expect(await history(shared.db)).toHaveLength(SCHEMA_MIGRATIONS.length);
  });

  it('refuses a database where a recorded step differs from the code, naming it', async () => {
    const edited = await fresh('migrate_edited');
    await migrate(edited.db, [{ version: 1, name: 'first', sql: 'CREATE TABLE one (id integer)' }]);
    await expect(
      migrate(edited.db, [{ version: 1, name: 'first', sql: 'CREATE TABLE one (id bigint)' }]),
    ).rejects.toThrow(MigrationHistoryError);
    await expect(
      migrate(edited.db, [{ version: 1, name: 'first', sql: 'CREATE TABLE one (id bigint)' }]),
    ).rejects.toThrow(/migration 1 \(first\) was changed/);
    await expect(migrate(edited.db, [{ version: 2, name: 'second', sql: 'SELECT 1' }])).rejects.toThrow(
      /numbered 1, 2, 3/,
    );
  });
});

describe('a read model whose schema version in code is higher than its tables', () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase('rebuild_on_deploy');
  });
  afterEach(() => database.drop());

  it('is rebuilt blue/green when the service starts, and answers the same afterwards', async () => {
    const first = await TestService.start({ store: 'postgres', databaseUrl: database.connectionString });
    let key: string;
    try {
      const partner = await first.createPartner('IN');
      key = partner.sandboxKey;
      const topup = await first.topup(
        key,
        { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 100 },
        'deploy-1',
      );
      expect(topup.status).toBe(200);
      await first.settle();
    } finally {
      await first.close();
    }
    // As if the balances tables had been built by an earlier release of the projection.
    const db = new PostgresDatabase({
      connectionString: database.connectionString,
      maxConnections: 1,
      applicationName: 'test',
    });
    try {
      await db.query(`UPDATE projection_versions SET schema_version = 0 WHERE name = 'balances'`);
    } finally {
      await db.close();
    }

    const second = await TestService.start({ store: 'postgres', databaseUrl: database.connectionString });
    try {
      const admin = second.app.get<SqlProjectionAdmin>(PROJECTION_ADMIN);
      const started = await sqlOf(second).query<{ rebuild_id: string }>(
        `SELECT rebuild_id FROM projection_rebuilds WHERE projection = 'balances'`,
      );
      expect(started).toHaveLength(1);
      await admin.whenFinished(started[0].rebuild_id);

      const rebuild = await second.admin('GET', `/projections/rebuilds/${started[0].rebuild_id}`);
      expect(rebuild.body).toMatchObject({
        projection: 'balances',
        state: 'completed',
        version_before: 1,
        version_after: 2,
      });
      expect(
        await sqlOf(second).query(`SELECT schema_version FROM projection_versions WHERE name = 'balances'`),
      ).toEqual([{ schema_version: 1 }]);
      const balance = await second.partner('GET', '/balance', key);
      expect(balance.body.available).toBe('900.00');
      expect(await admin.startDueRebuilds()).toEqual([]);
    } finally {
      await second.close();
    }
  });
});
