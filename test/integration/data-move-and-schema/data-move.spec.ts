import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecordedEvent } from '../../../src/application/ports/event-store.port';
import { readHistory } from '../../../src/application/data-move/event-history';
import { loadConfig } from '../../../src/config/load-config';
import { SqlEventStore } from '../../../src/infrastructure/event-store/sql-event-store';
import { PostgresDatabase } from '../../../src/infrastructure/sql/postgres-database';
import { migrateServiceDatabase } from '../../../src/infrastructure/open-database';
import { SqlWalletSnapshots } from '../../../src/infrastructure/wallet-snapshots/sql-wallet-snapshots';
import { WALLET_FOLD_VERSION } from '../../../src/domain/wallet/wallet.decider';
import { folderDigest, seenByTheRelease, unpackReleaseFolder } from '../../support/pglite-release-fixture';
import { createTestDatabase, TestDatabase } from '../../support/postgres-test-database';
import { SANDBOX_PHONES, TEST_ADMIN_TOKEN, TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';
import { CliRun, runCli, stderrBesidesProgress } from '../../support/run-cli';
import { waitForAsync } from '../../support/wait-for';
import { isProgressLine } from '../../../src/interface/cli/progress-reporter';
import { LOG_EVENT_DECODER } from '../../../src/application/ports/event-decoder.port';

const MOVE_TIMEOUT_MS = 120_000;

const storeEnv = (database: TestDatabase): Record<string, string> => ({
  EVENT_STORE: 'postgres',
  DATABASE_URL: database.connectionString,
});

/** Stderr without the JSON progress lines (stderr is no terminal here), which every step ends with. */
function besidesProgress(stderr: string): string {
  const lines = stderr.split('\n').filter((line) => line !== '');
  const progress = lines.filter(isProgressLine).map((line) => JSON.parse(line).progress as { finished: boolean });
  expect(progress.length > 0 && progress[progress.length - 1].finished).toBe(true);
  return stderrBesidesProgress(stderr);
}

/** The one JSON line an import prints, after checking it succeeded with nothing on stderr but its progress. */
function imported(run: CliRun): Record<string, unknown> {
  expect({ code: run.code, stderr: besidesProgress(run.stderr) }).toEqual({ code: 0, stderr: '' });
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

/** Every event of a database's store, as the port reads it, without its store-specific position. */
async function eventsIn(database: TestDatabase): Promise<Omit<RecordedEvent, 'position'>[]> {
  const db = new PostgresDatabase({ connectionString: database.connectionString, maxConnections: 2 });
  try {
    const store = new SqlEventStore(db, LOG_EVENT_DECODER);
    // Another database's open transaction on the same server can hold back what is readable (the horizon).
    await waitForAsync(async () => (await store.countCommittedNotYetReadable()) === 0, {
      what: 'every committed event to be readable',
    });
    const events: Omit<RecordedEvent, 'position'>[] = [];
    for await (const { position: _position, ...event } of readHistory(store)) events.push(event);
    return events;
  } finally {
    await db.close();
  }
}

/** Migrates a database and leaves in it a wallet snapshot of another log (a balance of 99,999.00 at revision 0). */
async function leaveWalletSnapshot(database: TestDatabase, streamId: string): Promise<void> {
  const db = new PostgresDatabase({ connectionString: database.connectionString, maxConnections: 2 });
  try {
    await migrateServiceDatabase(db);
    await new SqlWalletSnapshots(db).save(streamId, {
      revision: 0,
      eventId: randomUUID(),
      foldVersion: WALLET_FOLD_VERSION,
      state: { currency: 'INR', balanceMinor: '9999900', keySpends: [] },
      seal: null,
    });
    expect(await walletSnapshotsIn(database)).toBe(1);
  } finally {
    await db.close();
  }
}

async function walletSnapshotsIn(database: TestDatabase): Promise<number> {
  const db = new PostgresDatabase({ connectionString: database.connectionString, maxConnections: 2 });
  try {
    const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM wallet_snapshots');
    return row.n;
  } finally {
    await db.close();
  }
}

/** The read models' rows, table by table, in a stable order. */
async function readModelRows(database: TestDatabase): Promise<Record<string, unknown[]>> {
  const db = new PostgresDatabase({ connectionString: database.connectionString, maxConnections: 2 });
  try {
    const rows: Record<string, unknown[]> = {};
    for (const table of ['rm_partners', 'rm_api_keys', 'rm_partner_settings', 'rm_balances', 'rm_orders']) {
      rows[table] = await db.query(`SELECT * FROM ${table} ORDER BY 1, 2`);
    }
    return rows;
  } finally {
    await db.close();
  }
}

describe('data import of a PGlite folder written by the release before', () => {
  const seen = seenByTheRelease();
  let scratch: string;
  let folder: string;
  let target: TestDatabase;
  let service: TestService | null = null;

  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'data-move-'));
    folder = unpackReleaseFolder(scratch);
  });
  afterAll(async () => {
    await service?.close();
    await target?.drop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it(
    'moves every event into an empty PostgreSQL store and leaves the folder as it was',
    async () => {
      target = await createTestDatabase('import_release');
      const before = folderDigest(folder);
      // The keys bound again are those of the debits of the last 24 hours: how many depends on the day the test runs.
      expect(imported(await runCli(['data', 'import', folder], storeEnv(target)))).toMatchObject({
        imported_events: seen.events,
        source: folder,
        event_store: 'postgres',
        read_model_events: seen.events,
        // The order still PENDING when the release stopped: a poll, and its stuck-order check.
        jobs_scheduled: 2,
      });
      expect(folderDigest(folder)).toBe(before);
    },
    MOVE_TIMEOUT_MS,
  );

  it(
    'answers every balance and order as the release did, and verify passes',
    async () => {
      service = await TestService.start({
        store: 'postgres',
        databaseUrl: target.connectionString,
        env: { API_KEY_SECRET: seen.apiKeySecret },
      });
      for (const partner of seen.partners) {
        expect((await service.partner('GET', '/balance', partner.sandboxKey)).body).toEqual(partner.balance);
        expect((await service.partner('GET', '/transactions?limit=50', partner.sandboxKey)).body).toEqual(
          partner.transactions,
        );
      }
      const verified = await service.verify();
      expect(verified.body).toMatchObject({ ok: true, checked: { events: seen.events }, breaches: [] });
    },
    SERVICE_START_TIMEOUT_MS,
  );

  it('finishes the order that was in flight, and submits, refunds or announces nothing again', async () => {
    if (!service) throw new Error('the service did not start');
    await service.settle();
    const [indian] = seen.partners;
    const after = (await service.partner('GET', '/transactions?limit=50', indian.sandboxKey))
      .body as typeof indian.transactions;
    const pending = indian.transactions.transactions.find((order) => order.status === 'PENDING');
    expect(after.transactions.find((order) => order.order_id === pending?.order_id)).toMatchObject({
      status: 'SUCCESS',
    });
    // Every other order reads as before: none was submitted or refunded a second time.
    expect(after.transactions.filter((order) => order.order_id !== pending?.order_id)).toEqual(
      indian.transactions.transactions.filter((order) => order.order_id !== pending?.order_id),
    );
    expect((await service.partner('GET', '/balance', indian.sandboxKey)).body).toEqual(indian.balance);
    expect((await service.admin('GET', '/webhook-deliveries')).body).toMatchObject({ deliveries: [] });
    expect((await service.verify()).body).toMatchObject({ ok: true, breaches: [] });
  });
});

describe('an embedded installation of the release before, upgraded', () => {
  const seen = seenByTheRelease();
  let dataDir: string;
  let service: TestService | null = null;
  let copy: TestDatabase | null = null;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'data-move-embedded-'));
    // As root the embedded server runs as the postgres account, which must be able to enter the folder.
    chmodSync(dataDir, 0o711);
    unpackReleaseFolder(dataDir);
  });
  afterAll(async () => {
    await service?.close();
    await copy?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const embeddedEnv = (): Record<string, string> => ({ EVENT_STORE: 'embedded', DATA_DIR: dataDir });

  it(
    'is refused by the service with the import command, which moves DATA_DIR/pglite into the embedded server',
    async () => {
      expect(() => loadConfig({ ...embeddedEnv(), ADMIN_TOKEN: TEST_ADMIN_TOKEN })).toThrow(
        `npm run --silent cli -- data import ${join(dataDir, 'pglite')}`,
      );
      // Nothing to export yet, and nothing created by trying.
      const nothing = await runCli(['data', 'export'], embeddedEnv());
      expect({ code: nothing.code, stdout: nothing.stdout }).toEqual({ code: 3, stdout: '' });
      expect(nothing.stderr).toContain(`there is no embedded database in ${join(dataDir, 'postgres')}`);
      const run = await runCli(['data', 'import', dataDir], embeddedEnv());
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({
        imported_events: seen.events,
        source: join(dataDir, 'pglite'),
        event_store: 'embedded',
      });
      expect(existsSync(join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true);
      expect(() => loadConfig({ ...embeddedEnv(), ADMIN_TOKEN: TEST_ADMIN_TOKEN })).not.toThrow();
    },
    MOVE_TIMEOUT_MS,
  );

  it(
    'starts on the embedded server and answers every balance and order as the release did; exports while it runs',
    async () => {
      service = await TestService.start({ store: 'embedded', dataDir, env: { API_KEY_SECRET: seen.apiKeySecret } });
      for (const partner of seen.partners) {
        expect((await service.partner('GET', '/balance', partner.sandboxKey)).body).toEqual(partner.balance);
        expect((await service.partner('GET', '/transactions?limit=50', partner.sandboxKey)).body).toEqual(
          partner.transactions,
        );
      }
      expect((await service.verify()).body).toMatchObject({ ok: true, breaches: [] });
      // While the service runs, an export reads through its server; an import is refused.
      const exported = await runCli(['data', 'export'], embeddedEnv());
      expect(exported.code).toBe(0);
      expect(exported.stdout.trimEnd().split('\n')).toHaveLength(seen.events);
      const refused = await runCli(['data', 'import', join(dataDir, 'pglite')], embeddedEnv());
      expect(refused.code).toBe(3);
      expect(refused.stderr).toContain('stop it before importing');
      await service.close();
      service = null;
    },
    SERVICE_START_TIMEOUT_MS,
  );

  it(
    'moves on to an external PostgreSQL with export and import, event for event',
    async () => {
      const exported = await runCli(['data', 'export'], embeddedEnv());
      expect(exported.code).toBe(0);
      const file = join(dataDir, 'log.jsonl');
      writeFileSync(file, exported.stdout);
      copy = await createTestDatabase('move_from_embedded');
      expect(imported(await runCli(['data', 'import', file], storeEnv(copy)))).toMatchObject({
        imported_events: seen.events,
      });
      expect((await runCli(['data', 'export'], storeEnv(copy))).stdout).toBe(exported.stdout);
    },
    MOVE_TIMEOUT_MS,
  );
});

describe('a round trip: PostgreSQL, data export, data import into another PostgreSQL', () => {
  let source: TestDatabase;
  let target: TestDatabase;
  let scratch: string;
  let original: TestService | null = null;
  let moved: TestService | null = null;
  let exported: CliRun;
  const answers: { key: string; balance: unknown; transactions: unknown }[] = [];

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'data-move-'));
    [source, target] = await Promise.all([createTestDatabase('move_source'), createTestDatabase('move_target')]);
    original = await TestService.start({ store: 'postgres', databaseUrl: source.connectionString });
    const service = original;
    const indian = await service.createPartner('IN', 'Round Trip India');
    const bangladeshi = await service.createPartner('BD', 'Round Trip Bangladesh');
    await service.settle();
    await service.admin('POST', `/partners/${indian.partnerId}/wallet-credits`, {
      environment: 'sandbox',
      amount: '120.25',
      reference: 'wire 1',
    });
    await service.admin('PATCH', `/partners/${indian.partnerId}/settings`, { environment: 'sandbox', rate_limit: 90 });
    for (const suffix of ['0001', '0002', '0003', '0004', '0005']) {
      const placed = await service.topup(
        indian.sandboxKey,
        { operator_id: 101, phone: SANDBOX_PHONES.IN(suffix), amount: 75 },
        `round-trip-${suffix}`,
      );
      expect(placed.status).toBe(200);
    }
    await service.topup(
      bangladeshi.sandboxKey,
      { operator_id: 201, phone: SANDBOX_PHONES.BD('0002'), amount: 40 },
      'round-trip-bd-0002',
    );
    await service.settle();
    // The delayed outcomes arrive; the order that never settles is held, then resolved by an operator.
    await service.advance(31_000);
    await service.advance(service.config.stuckOrderAfterMs);
    const held = (await service.admin('GET', '/orders?held=true')).body as { orders: { order_id: string }[] };
    expect(held.orders).toHaveLength(1);
    await service.admin('POST', `/orders/${held.orders[0].order_id}/resolve`, {
      outcome: 'success',
      reason: 'confirmed by the operator',
    });
    await service.settle();
    for (const { sandboxKey } of [indian, bangladeshi]) {
      answers.push({
        key: sandboxKey,
        balance: (await service.partner('GET', '/balance', sandboxKey)).body,
        transactions: (await service.partner('GET', '/transactions?limit=50', sandboxKey)).body,
      });
    }
    await service.close();
    original = null;
  }, SERVICE_START_TIMEOUT_MS);

  afterAll(async () => {
    await original?.close();
    await moved?.close();
    await Promise.all([source?.drop(), target?.drop()]);
    rmSync(scratch, { recursive: true, force: true });
  });

  it(
    'exports every event in global order, one JSON object per line',
    async () => {
      exported = await runCli(['data', 'export'], storeEnv(source));
      expect({ code: exported.code, stderr: besidesProgress(exported.stderr) }).toEqual({ code: 0, stderr: '' });
      const lines = exported.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const events = await eventsIn(source);
      expect(lines).toHaveLength(events.length);
      expect(lines[0]).toEqual({
        stream: events[0].streamId,
        revision: 0,
        event_id: events[0].eventId,
        type: 'PartnerOnboarded',
        schema_version: 1,
        data: events[0].data,
        metadata: events[0].metadata,
        recorded_at: events[0].recordedAt,
      });
      expect(lines.map((line) => line.event_id)).toEqual(events.map((event) => event.eventId));
    },
    MOVE_TIMEOUT_MS,
  );

  it(
    'imports them into an empty store with the same ids, revisions, times and order, and the same read models',
    async () => {
      const file = join(scratch, 'log.jsonl');
      writeFileSync(file, exported.stdout);
      const events = await eventsIn(source);
      // A wallet snapshot left in the target's database describes another log: the import forgets it.
      await leaveWalletSnapshot(target, events.find((event) => event.streamId.startsWith('wallet-'))?.streamId ?? '');
      expect(imported(await runCli(['data', 'import', file], storeEnv(target)))).toEqual({
        imported_events: events.length,
        source: file,
        event_store: 'postgres',
        read_model_events: events.length,
        jobs_scheduled: 0,
        idempotency_keys_bound: 6,
      });
      expect(await eventsIn(target)).toEqual(events);
      expect(await readModelRows(target)).toEqual(await readModelRows(source));
      expect(await walletSnapshotsIn(target)).toBe(0);
      // Exported again, the history is the same file.
      expect((await runCli(['data', 'export'], storeEnv(target))).stdout).toBe(exported.stdout);
    },
    MOVE_TIMEOUT_MS,
  );

  it(
    'serves the same balances and orders, verify passes, and new orders follow on',
    async () => {
      moved = await TestService.start({ store: 'postgres', databaseUrl: target.connectionString });
      for (const answer of answers) {
        expect((await moved.partner('GET', '/balance', answer.key)).body).toEqual(answer.balance);
        expect((await moved.partner('GET', '/transactions?limit=50', answer.key)).body).toEqual(answer.transactions);
      }
      expect((await moved.verify()).body).toMatchObject({ ok: true, breaches: [] });
      const [indian] = answers;
      // A retry of a request answered before the move is not placed again: its key still holds its order.
      const retry = await moved.topup(
        indian.key,
        { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 75 },
        'round-trip-0001',
      );
      expect(retry.status).toBe(409);
      expect((await moved.partner('GET', '/balance', indian.key)).body).toEqual(indian.balance);
      const next = await moved.topup(
        indian.key,
        { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 10 },
        'after-the-move',
      );
      expect(next.status).toBe(200);
      await moved.settle();
      expect((await moved.verify()).body).toMatchObject({ ok: true, breaches: [] });
    },
    SERVICE_START_TIMEOUT_MS,
  );

  it(
    'refuses a store that is not empty, and a file with a bad line before writing anything',
    async () => {
      const file = join(scratch, 'log.jsonl');
      const again = await runCli(['data', 'import', file], storeEnv(target));
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/not empty/);

      const empty = await createTestDatabase('move_refused');
      try {
        const broken = join(scratch, 'broken.jsonl');
        const lines = exported.stdout.trimEnd().split('\n');
        writeFileSync(broken, [...lines.slice(0, 3), '{"stream":"x"}', ...lines.slice(3)].join('\n'));
        const refused = await runCli(['data', 'import', broken], storeEnv(empty));
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain('line 4: revision must be a whole number');
        // Nothing was written: the same database takes the whole history afterwards.
        expect(imported(await runCli(['data', 'import', file], storeEnv(empty)))).toMatchObject({
          imported_events: (await eventsIn(source)).length,
        });
      } finally {
        await empty.drop();
      }
    },
    MOVE_TIMEOUT_MS,
  );
});
