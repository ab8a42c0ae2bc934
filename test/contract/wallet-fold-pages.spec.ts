import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { NO_WALLET_SNAPSHOTS } from '../../src/application/ports/wallet-snapshots.port';
import { WalletCommandProcessor } from '../../src/application/wallets/wallet-command-processor';
import { WALLET_FOLD_PAGE } from '../../src/application/wallets/wallet-fold';
import { WalletSnapshotting, sealedSnapshotOf } from '../../src/application/wallets/wallet-snapshotting';
import { walletStream, walletStreamId } from '../../src/domain/wallet/wallet.stream';
import { SqlEventStore } from '../../src/infrastructure/event-store/sql-event-store';
import { migrateServiceDatabase } from '../../src/infrastructure/open-database';
import { HmacSnapshotSeal } from '../../src/infrastructure/security/hmac-snapshot-seal';
import { PostgresDatabase } from '../../src/infrastructure/sql/postgres-database';
import { SqlWalletSnapshots } from '../../src/infrastructure/wallet-snapshots/sql-wallet-snapshots';
import { LOG_EVENT_DECODER } from '../../src/application/ports/event-decoder.port';
import { createTestDatabase, TestDatabase } from '../support/postgres-test-database';
import { CountingEventStore, creditOf, debitOf } from '../support/wallet-commands';

/**
 * A wallet's history has no bound, and a process holds at most a page of it while it folds the wallet: a cold wallet
 * without a usable snapshot, one loaded from a snapshot far behind, and a cached wallet that another process moved
 * on are all read WALLET_FOLD_PAGE events at a time, on the real log in PostgreSQL, and decide on the whole history.
 */
const SECRET = 'wallet-fold-pages-secret-0123456789abcdef';

beforeAll(() => Logger.overrideLogger(false));

describe('a wallet is folded from the log a page at a time', () => {
  let database: TestDatabase;
  let db: PostgresDatabase;
  let store: SqlEventStore;

  beforeAll(async () => {
    database = await createTestDatabase('wallet_fold_pages');
    db = new PostgresDatabase({ connectionString: database.connectionString, maxConnections: 4 });
    await migrateServiceDatabase(db);
    store = new SqlEventStore(db, LOG_EVENT_DECODER);
  });
  afterAll(async () => {
    await store.close();
    await db.close();
    await database.drop();
  });

  /** A wallet of `count` credits of 1.00 INR each, written by a processor of its own (another process, as it were). */
  async function creditedBy(writer: WalletCommandProcessor, partnerId: string, count: number): Promise<void> {
    const results = await Promise.all(
      Array.from({ length: count }, () => writer.execute(partnerId, 'sandbox', creditOf(partnerId, '1.00'))),
    );
    expect(results.filter((result) => !result.ok)).toEqual([]);
  }

  it('reads a cold wallet without a snapshot in pages and decides on its whole balance', async () => {
    const partnerId = `ptn_${randomUUID()}`;
    await creditedBy(new WalletCommandProcessor(store), partnerId, 2 * WALLET_FOLD_PAGE + 100);
    const recorded = new CountingEventStore(store);
    const reads = recorded.reads;
    const cold = new WalletCommandProcessor(recorded, NO_WALLET_SNAPSHOTS);

    const everything = await cold.execute(partnerId, 'sandbox', debitOf(partnerId, '2100.00'));
    const overdraft = await cold.execute(partnerId, 'sandbox', debitOf(partnerId, '0.01'));

    expect(everything.ok && everything.event.data.balanceAfter).toBe('0.00');
    expect(!overdraft.ok && overdraft.error.code).toBe('insufficient_balance');
    expect(reads.slice(0, 3)).toEqual([
      { from: 0, max: WALLET_FOLD_PAGE, got: WALLET_FOLD_PAGE },
      { from: WALLET_FOLD_PAGE, max: WALLET_FOLD_PAGE, got: WALLET_FOLD_PAGE },
      { from: 2 * WALLET_FOLD_PAGE, max: WALLET_FOLD_PAGE, got: 100 },
    ]);
    expect(Math.max(...reads.map((read) => read.got))).toBeLessThanOrEqual(WALLET_FOLD_PAGE);
  });

  it('reads from a snapshot far behind the end in pages, after checking the snapshot against its event', async () => {
    const partnerId = `ptn_${randomUUID()}`;
    const streamId = walletStreamId(partnerId, 'sandbox');
    const snapshots = new SqlWalletSnapshots(db);
    const seal = new HmacSnapshotSeal(SECRET);
    await creditedBy(new WalletCommandProcessor(store), partnerId, 10);
    const atTen = await new WalletSnapshotting(store, NO_WALLET_SNAPSHOTS, Number.MAX_SAFE_INTEGER).load(
      walletStream(partnerId, 'sandbox'),
    );
    if (atTen.eventId === null) throw new Error('the wallet has no events');
    await snapshots.save(streamId, sealedSnapshotOf(streamId, { ...atTen, eventId: atTen.eventId }, seal));
    await creditedBy(new WalletCommandProcessor(store), partnerId, WALLET_FOLD_PAGE + 5);
    const recorded = new CountingEventStore(store);
    const reads = recorded.reads;

    const loaded = await new WalletSnapshotting(recorded, snapshots, Number.MAX_SAFE_INTEGER, seal).load(
      walletStream(partnerId, 'sandbox'),
    );

    expect({
      revision: loaded.revision,
      balance: loaded.state.balanceMinor,
      snapshot: loaded.snapshotRevision,
    }).toEqual({ revision: WALLET_FOLD_PAGE + 14, balance: BigInt(100 * (WALLET_FOLD_PAGE + 15)), snapshot: 9 });
    expect(reads).toEqual([
      { from: 9, max: 1, got: 1 },
      { from: 10, max: WALLET_FOLD_PAGE, got: WALLET_FOLD_PAGE },
      { from: 10 + WALLET_FOLD_PAGE, max: WALLET_FOLD_PAGE, got: 5 },
    ]);
  });

  it('stops after a page that comes back short, even when the history ends exactly at a page', async () => {
    const partnerId = `ptn_${randomUUID()}`;
    await creditedBy(new WalletCommandProcessor(store), partnerId, 21);
    const recorded = new CountingEventStore(store);
    const reads = recorded.reads;

    const loaded = await new WalletSnapshotting(
      recorded,
      NO_WALLET_SNAPSHOTS,
      Number.MAX_SAFE_INTEGER,
      undefined,
      7,
    ).load(walletStream(partnerId, 'sandbox'));

    expect({ revision: loaded.revision, balance: loaded.state.balanceMinor }).toEqual({
      revision: 20,
      balance: 2_100n,
    });
    expect(reads.map((read) => [read.from, read.got])).toEqual([
      [0, 7],
      [7, 7],
      [14, 7],
      [21, 0],
    ]);
  });

  it('brings a cached wallet that another process moved on up to date in pages', async () => {
    const partnerId = `ptn_${randomUUID()}`;
    await creditedBy(new WalletCommandProcessor(store), partnerId, 3);
    const recorded = new CountingEventStore(store);
    const reads = recorded.reads;
    const cached = new WalletCommandProcessor(recorded, NO_WALLET_SNAPSHOTS);
    const first = await cached.execute(partnerId, 'sandbox', debitOf(partnerId, '1.00'));
    expect(first.ok && first.event.data.balanceAfter).toBe('2.00');
    await creditedBy(new WalletCommandProcessor(store), partnerId, WALLET_FOLD_PAGE + 1);
    const before = reads.length;

    const now = await cached.currentWithRevision(partnerId, 'sandbox');

    expect({ revision: now.revision, balance: now.state.balanceMinor }).toEqual({
      revision: WALLET_FOLD_PAGE + 4,
      balance: BigInt(100 * (WALLET_FOLD_PAGE + 3)),
    });
    expect(reads.slice(before)).toEqual([
      { from: 4, max: WALLET_FOLD_PAGE, got: WALLET_FOLD_PAGE },
      { from: 4 + WALLET_FOLD_PAGE, max: WALLET_FOLD_PAGE, got: 1 },
    ]);
  });
});
