import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { WalletCommandProcessor, WalletCommandResult } from '../../src/application/wallets/wallet-command-processor';
import { walletStreamId } from '../../src/domain/wallet/wallet.stream';
import { SqlEventStore } from '../../src/infrastructure/event-store/sql-event-store';
import { migrateServiceDatabase } from '../../src/infrastructure/open-database';
import { PostgresDatabase } from '../../src/infrastructure/sql/postgres-database';
import { SqlWalletSnapshots } from '../../src/infrastructure/wallet-snapshots/sql-wallet-snapshots';
import { HmacSnapshotSeal } from '../../src/infrastructure/security/hmac-snapshot-seal';
import { createTestDatabase, TestDatabase } from '../support/postgres-test-database';
import { waitForAsync } from '../support/wait-for';
import { CountingEventStore, creditOf, debitOf } from '../support/wallet-commands';
import { LOG_EVENT_DECODER } from '../../src/application/ports/event-decoder.port';

/** The wallet lane's snapshots in PostgreSQL (the table of migration 5), with the SQL event store beside them. */
const EVERY = 5;
const SEAL = new HmacSnapshotSeal('wallet-snapshots-contract-secret-0123456789abcdef');

// What an ignored snapshot logs is not what these tests look at.
beforeAll(() => Logger.overrideLogger(false));

describe('wallet snapshots in PostgreSQL', () => {
  let database: TestDatabase;
  let db: PostgresDatabase;
  let store: SqlEventStore;
  let snapshots: SqlWalletSnapshots;

  beforeAll(async () => {
    database = await createTestDatabase('wallet_snapshots');
    db = new PostgresDatabase({ connectionString: database.connectionString, maxConnections: 4 });
    await migrateServiceDatabase(db);
    store = new SqlEventStore(db, LOG_EVENT_DECODER);
    snapshots = new SqlWalletSnapshots(db.withAsynchronousCommit());
  });
  afterAll(async () => {
    await store.close();
    await db.close();
    await database.drop();
  });

  const processor = (over: SqlEventStore | CountingEventStore = store) =>
    new WalletCommandProcessor(over, snapshots, EVERY, SEAL);
  const balanceAfter = (result: WalletCommandResult): string | null =>
    result.ok ? result.event.data.balanceAfter : null;
  const refusal = (result: WalletCommandResult): string | null => (result.ok ? null : result.error.code);

  async function storedRevision(streamId: string): Promise<number | null> {
    const [row] = await db.query<{ revision: string }>(
      'SELECT revision::text AS revision FROM wallet_snapshots WHERE stream_id = $1',
      [streamId],
    );
    return row ? Number(row.revision) : null;
  }

  /** A wallet credited 1,000.00 and debited 10.00 twelve times (revisions 0–12), its snapshot at revision 9 stored. */
  async function walletWithSnapshots(): Promise<{ partnerId: string; stream: string }> {
    const partnerId = `ptn_${randomUUID()}`;
    const stream = walletStreamId(partnerId, 'sandbox');
    const lane = processor();
    await lane.execute(partnerId, 'sandbox', creditOf(partnerId, '1000.00'));
    for (let index = 0; index < 12; index += 1) await lane.execute(partnerId, 'sandbox', debitOf(partnerId, '10.00'));
    await waitForAsync(async () => (await storedRevision(stream)) === 9, { what: 'the snapshot at revision 9' });
    return { partnerId, stream };
  }

  it('bound the read: a restarted process folds only the events from the last snapshot on', async () => {
    const { partnerId } = await walletWithSnapshots();
    const counting = new CountingEventStore(store);
    const restarted = processor(counting);
    expect(refusal(await restarted.execute(partnerId, 'sandbox', debitOf(partnerId, '880.01')))).toBe(
      'insufficient_balance',
    );
    // The snapshot's own event (revision 9, to check it is still the one it was taken at), then the three after it.
    expect(counting.streamReads).toEqual([1, 3]);
    expect(balanceAfter(await restarted.execute(partnerId, 'sandbox', debitOf(partnerId, '880.00')))).toBe('0.00');
    expect(counting.streamReads).toEqual([1, 3]);
  });

  it('keep amounts as decimal strings and move only forward', async () => {
    const { stream } = await walletWithSnapshots();
    const [row] = await db.query<{ balance: unknown; kind: string; fold_version: number }>(
      `SELECT state->'balanceMinor' AS balance, jsonb_typeof(state->'balanceMinor') AS kind, fold_version
         FROM wallet_snapshots WHERE stream_id = $1`,
      [stream],
    );
    expect(row).toEqual({ balance: '91000', kind: 'string', fold_version: 1 });
    const stored = await snapshots.latest(stream);
    if (!stored) throw new Error('no snapshot');
    await snapshots.save(stream, { ...stored, revision: 4, state: { ...(stored.state as object), balanceMinor: '1' } });
    expect(await snapshots.latest(stream)).toEqual(stored);
    await snapshots.discard(stream, { ...stored, eventId: randomUUID() });
    expect(await snapshots.latest(stream)).toEqual(stored);
    await snapshots.discard(stream, stored);
    expect(await snapshots.latest(stream)).toBeNull();
  });

  it.each([
    ['of another fold version', `fold_version = 2, state = jsonb_set(state, '{balanceMinor}', '"9910000"')`],
    ['whose state is unreadable', `state = '{"balanceMinor": 91000}'`],
    ['whose balance is not the one its event recorded', `state = jsonb_set(state, '{balanceMinor}', '"9910000"')`],
    ['beyond the end of the stream', `revision = 40`],
    ['at an event that is not the one it was taken at', `event_id = gen_random_uuid()`],
    ['without a seal (taken by a release before seals)', `seal = NULL`],
    ['whose seal was made without the server secret', `seal = 'v1.' || repeat('0', 64)`],
    [
      'whose state was changed and sealed again without the server secret',
      `state = jsonb_set(state, '{balanceMinor}', '"9910000"'), seal = 'v1.' || encode(sha256(convert_to(state::text, 'UTF8')), 'hex')`,
    ],
  ])('%s are ignored, and replaced', async (_case, change) => {
    const { partnerId, stream } = await walletWithSnapshots();
    await db.query(`UPDATE wallet_snapshots SET ${change} WHERE stream_id = $1`, [stream]);
    const counting = new CountingEventStore(store);
    const restarted = processor(counting);
    expect(refusal(await restarted.execute(partnerId, 'sandbox', debitOf(partnerId, '880.01')))).toBe(
      'insufficient_balance',
    );
    expect(balanceAfter(await restarted.execute(partnerId, 'sandbox', debitOf(partnerId, '880.00')))).toBe('0.00');
    // Folded from the first event at last; that cold load (13 events) took a snapshot in place of the one ignored.
    expect(counting.streamReads.at(-1)).toBe(13);
    await waitForAsync(async () => (await storedRevision(stream)) === 12, { what: 'a snapshot at revision 12' });
    expect((await snapshots.latest(stream))?.state).toMatchObject({ balanceMinor: '88000' });
  });
});
