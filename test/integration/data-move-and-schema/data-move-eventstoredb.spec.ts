import { readModelProjections } from '../../../src/infrastructure/read-models/read-model-projections';
import { RecordedEvent } from '../../../src/application/ports/event-store.port';
import { historicalEventOf, importHistory, readHistory } from '../../../src/application/data-move/event-history';
import { rebuildAfterImport } from '../../../src/application/data-move/rebuild-after-import';
import { StoreNotEmptyError } from '../../../src/application/ports/history-move.port';
import { loadConfig } from '../../../src/config/load-config';
import { openedHistoryStore } from '../../../src/infrastructure/data-move/opened-history-store';
import { EventStoreDbEventStore } from '../../../src/infrastructure/event-store/eventstoredb-event-store';
import { SqlEventStore } from '../../../src/infrastructure/event-store/sql-event-store';
import { openDatabase } from '../../../src/infrastructure/open-database';
import { SqlDatabase } from '../../../src/infrastructure/sql/sql-database';
import { createTestDatabase, TestDatabase } from '../../support/postgres-test-database';
import { SANDBOX_PHONES, TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';
import { FakeEventStoreDbClient } from '../../unit/infrastructure/event-store/fake-eventstoredb-client';
import { LOG_EVENT_DECODER } from '../../../src/application/ports/event-decoder.port';

/*
 * The eventstoredb leg of a move, without a server: the history of a PostgreSQL service is imported through the
 * EventStoreDB adapter (over the in-memory client that the adapter's own tests use) with its read models in a fresh
 * PostgreSQL database, exactly as `data import` does it in eventstoredb mode (only the connection differs).
 */

const withoutPosition = ({ position: _position, ...event }: RecordedEvent): Omit<RecordedEvent, 'position'> => event;

async function all(store: SqlEventStore | EventStoreDbEventStore): Promise<Omit<RecordedEvent, 'position'>[]> {
  const events: Omit<RecordedEvent, 'position'>[] = [];
  for await (const event of readHistory(store, 7)) events.push(withoutPosition(event));
  return events;
}

async function readModelRows(db: SqlDatabase): Promise<Record<string, unknown[]>> {
  const rows: Record<string, unknown[]> = {};
  for (const table of ['rm_partners', 'rm_api_keys', 'rm_partner_settings', 'rm_balances', 'rm_orders'])
    rows[table] = await db.query(`SELECT * FROM ${table} ORDER BY 1, 2`);
  return rows;
}

const openFor = (database: TestDatabase): Promise<SqlDatabase> =>
  openDatabase(
    loadConfig({
      EVENT_STORE: 'eventstoredb',
      DATABASE_URL: database.connectionString,
      EVENTSTORE_CONNECTION_STRING: 'esdb://unused',
      API_KEY_SECRET: 'k'.repeat(32),
      ADMIN_TOKEN: 'a'.repeat(32),
    }),
  );

describe('moving a PostgreSQL history into EventStoreDB (adapter over an in-memory client)', () => {
  let source: TestDatabase;
  let target: TestDatabase;
  let sourceDb: SqlDatabase;
  let targetDb: SqlDatabase;
  let esdb: EventStoreDbEventStore;

  beforeAll(async () => {
    [source, target] = await Promise.all([
      createTestDatabase('esdb_move_source'),
      createTestDatabase('esdb_move_target'),
    ]);
    const service = await TestService.start({ store: 'postgres', databaseUrl: source.connectionString });
    try {
      const partner = await service.createPartner('SG', 'Move to EventStoreDB');
      await service.settle();
      for (const suffix of ['0001', '0002', '0003', '0005']) {
        expect(
          (
            await service.topup(
              partner.sandboxKey,
              { operator_id: 301, phone: SANDBOX_PHONES.SG(suffix), amount: 5 },
              `esdb-move-${suffix}`,
            )
          ).status,
        ).toBe(200);
      }
      await service.settle();
    } finally {
      await service.close();
    }
    sourceDb = await openFor(source);
    targetDb = await openFor(target);
    const client = new FakeEventStoreDbClient({ systemEventEvery: 3 });
    client.appendForeignEvent();
    esdb = new EventStoreDbEventStore(client, LOG_EVENT_DECODER, { watchRemoteAppends: false });
  }, SERVICE_START_TIMEOUT_MS);

  afterAll(async () => {
    await esdb?.close();
    await sourceDb?.close();
    await targetDb?.close();
    await Promise.all([source?.drop(), target?.drop()]);
  });

  it('stores every event with its id, revision and recorded time, in order, and builds the same read models', async () => {
    const sourceStore = new SqlEventStore(sourceDb, LOG_EVENT_DECODER);
    const history = await all(sourceStore);
    const imported = await importHistory(
      esdb,
      (async function* () {
        for await (const event of readHistory(sourceStore)) yield historicalEventOf(event);
      })(),
      { batchSize: 10 },
    );
    expect(imported).toBe(history.length);
    expect(await all(esdb)).toEqual(history);
    // An order's events are found by correlation id, as the service's order lifecycle reads them.
    const order = history.find((event) => event.type === 'TransactionInitiated');
    expect((await esdb.readByCorrelationId(order?.metadata.correlationId ?? '')).map((event) => event.eventId)).toEqual(
      history
        .filter((event) => event.metadata.correlationId === order?.metadata.correlationId)
        .map((event) => event.eventId),
    );

    const readModels = readModelProjections();
    const target = openedHistoryStore(targetDb, esdb, async () => undefined, readModels);
    const rebuilt = await rebuildAfterImport(target, {
      now: new Date(),
      stuckOrderAfterMs: 900_000,
    });
    expect(rebuilt).toMatchObject({ events: history.length, keysBound: 4 });
    // The order held pending (0003 settles later, 0005 never): a poll and a stuck-order check each.
    expect(rebuilt.jobsScheduled).toBe(4);
    expect(await readModelRows(targetDb)).toEqual(await readModelRows(sourceDb));
  });

  it('refuses a second import into the same store', async () => {
    const one = (await all(new SqlEventStore(sourceDb, LOG_EVENT_DECODER)))[0];
    await expect(
      importHistory(
        esdb,
        (async function* () {
          yield { ...one };
        })(),
        { batchSize: 10 },
      ),
    ).rejects.toBeInstanceOf(StoreNotEmptyError);
  });
});
