import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { EventStore, HistoricalEvent } from '../../../../src/application/ports/event-store.port';
import { WalletSnapshots } from '../../../../src/application/ports/wallet-snapshots.port';
import {
  WalletCommandEnvelope,
  WalletCommandProcessor,
  WalletCommandResult,
} from '../../../../src/application/wallets/wallet-command-processor';
import { walletStreamId } from '../../../../src/domain/wallet/wallet.stream';
import { EventStoreDbEventStore } from '../../../../src/infrastructure/event-store/eventstoredb-event-store';
import { CountingEventStore, InMemoryWalletSnapshots, creditOf, debitOf } from '../../../support/wallet-commands';
import { waitFor } from '../../../support/wait-for';
import { FakeEventStoreDbClient } from '../../infrastructure/event-store/fake-eventstoredb-client';
import { HmacSnapshotSeal } from '../../../../src/infrastructure/security/hmac-snapshot-seal';
import { LOG_EVENT_DECODER } from '../../../../src/application/ports/event-decoder.port';

/**
 * The wallet lane's snapshots over the EventStoreDB adapter (an in-memory stand-in of its client), where
 * the snapshots live in another database than the log: a snapshot must never stand for another log.
 * test/contract/wallet-snapshots.spec.ts runs the same lane on PostgreSQL with the real table.
 */
const EVERY = 5;

// What an ignored or unwritten snapshot logs is not what these tests look at.
beforeAll(() => Logger.overrideLogger(false));

const stores: EventStore[] = [];
function eventStoreDb(): EventStoreDbEventStore {
  const store = new EventStoreDbEventStore(new FakeEventStoreDbClient(), LOG_EVENT_DECODER);
  stores.push(store);
  return store;
}
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

const SEAL = new HmacSnapshotSeal('wallet-snapshots-unit-secret-0123456789abcdef');
const processor = (store: EventStore, snapshots: WalletSnapshots) =>
  new WalletCommandProcessor(store, snapshots, EVERY, SEAL);

async function run(lane: WalletCommandProcessor, partnerId: string, command: WalletCommandEnvelope) {
  return lane.execute(partnerId, 'sandbox', command);
}

const balanceAfter = (result: WalletCommandResult): string | null =>
  result.ok ? result.event.data.balanceAfter : null;
const refusal = (result: WalletCommandResult): string | null => (result.ok ? null : result.error.code);

/** A wallet credited 1,000.00 then debited 10.00 `debits` times, one command after the other. */
async function history(lane: WalletCommandProcessor, partnerId: string, debits: number): Promise<void> {
  expect(balanceAfter(await run(lane, partnerId, creditOf(partnerId, '1000.00')))).toBe('1000.00');
  for (let index = 1; index <= debits; index += 1) {
    const after = (1000 - 10 * index).toFixed(2);
    expect(balanceAfter(await run(lane, partnerId, debitOf(partnerId, '10.00')))).toBe(after);
  }
}

/** The stored events of a stream, as `data import` would carry them to another store. */
async function historicalEvents(store: EventStore, streamId: string, count: number): Promise<HistoricalEvent[]> {
  const events = await store.readStream(streamId, 0, count);
  return events.map(({ eventId, type, schemaVersion, data, metadata, streamId: stream, revision, recordedAt }) => ({
    eventId,
    type,
    schemaVersion,
    data,
    metadata,
    streamId: stream,
    revision,
    recordedAt,
  }));
}

describe('wallet snapshots (EventStoreDB adapter)', () => {
  it('are taken every few events, and a restarted process folds only the events from the last one on', async () => {
    const store = eventStoreDb();
    const snapshots = new InMemoryWalletSnapshots();
    const partnerId = `ptn_${randomUUID()}`;
    const stream = walletStreamId(partnerId, 'sandbox');
    await history(processor(store, snapshots), partnerId, 12);
    // Revisions 0–12: snapshots at revision 4 (five events) and 9 (five more).
    await waitFor(() => snapshots.rows.get(stream)?.revision === 9, { what: 'the snapshot at revision 9' });
    expect(snapshots.saves).toBe(2);

    const counting = new CountingEventStore(store);
    const restarted = processor(counting, snapshots);
    expect(refusal(await run(restarted, partnerId, debitOf(partnerId, '880.01')))).toBe('insufficient_balance');
    // The snapshot's own event (revision 9, checked), then the three after it (decision 0171).
    expect(counting.streamReads).toEqual([1, 3]);
    expect(balanceAfter(await run(restarted, partnerId, debitOf(partnerId, '880.00')))).toBe('0.00');
    expect(counting.streamReads).toEqual([1, 3]);
  });

  it('of another log are ignored: the wallet is folded from the log it is in', async () => {
    const snapshots = new InMemoryWalletSnapshots();
    const partnerId = `ptn_${randomUUID()}`;
    const stream = walletStreamId(partnerId, 'sandbox');
    await history(processor(eventStoreDb(), snapshots), partnerId, 12);
    await waitFor(() => snapshots.rows.get(stream)?.revision === 9, { what: 'the snapshot at revision 9' });

    // Another EventStoreDB (a cluster replaced, a test log) under the same stream name, longer than the snapshot.
    const other = eventStoreDb();
    const lane = processor(other, snapshots);
    await history(processor(other, new InMemoryWalletSnapshots()), partnerId, 14);
    expect(refusal(await run(lane, partnerId, debitOf(partnerId, '860.01')))).toBe('insufficient_balance');
    expect(balanceAfter(await run(lane, partnerId, debitOf(partnerId, '860.00')))).toBe('0.00');
    // The misfit is replaced by a snapshot of this log (its cold load folded 15 events).
    const [atFourteen] = await other.readStream(stream, 14, 1);
    await waitFor(() => snapshots.rows.get(stream)?.eventId === atFourteen.eventId, { what: 'a snapshot of this log' });
  });

  it('beyond the end of the log (a store restored from an older backup) are ignored', async () => {
    const store = eventStoreDb();
    const snapshots = new InMemoryWalletSnapshots();
    const partnerId = `ptn_${randomUUID()}`;
    const stream = walletStreamId(partnerId, 'sandbox');
    await history(processor(store, snapshots), partnerId, 12);
    await waitFor(() => snapshots.rows.get(stream)?.revision === 9, { what: 'the snapshot at revision 9' });

    const restored = eventStoreDb();
    await restored.importEvents(await historicalEvents(store, stream, 7));
    const lane = processor(restored, snapshots);
    // Seven events: the credit and six debits.
    expect(refusal(await run(lane, partnerId, debitOf(partnerId, '940.01')))).toBe('insufficient_balance');
    expect(balanceAfter(await run(lane, partnerId, debitOf(partnerId, '940.00')))).toBe('0.00');
  });

  it.each([
    ['whose balance is not the one its event recorded', { balanceMinor: '9910000' }, {}],
    ['of another fold version', {}, { foldVersion: 2 }],
    ['whose state is unreadable', { balanceMinor: 91000 }, {}],
    ['at a revision that is not one', {}, { revision: -3 }],
  ])('%s are ignored', async (_case, state, row) => {
    const store = eventStoreDb();
    const snapshots = new InMemoryWalletSnapshots();
    const partnerId = `ptn_${randomUUID()}`;
    const stream = walletStreamId(partnerId, 'sandbox');
    await history(processor(store, snapshots), partnerId, 12);
    await waitFor(() => snapshots.rows.get(stream)?.revision === 9, { what: 'the snapshot at revision 9' });
    const stored = snapshots.rows.get(stream);
    if (!stored) throw new Error('no snapshot');
    snapshots.rows.set(stream, { ...stored, ...row, state: { ...(stored.state as object), ...state } });

    const lane = processor(store, snapshots);
    expect(refusal(await run(lane, partnerId, debitOf(partnerId, '880.01')))).toBe('insufficient_balance');
    expect(balanceAfter(await run(lane, partnerId, debitOf(partnerId, '880.00')))).toBe('0.00');
  });

  it('that cannot be read or written never fail a command', async () => {
    const store = eventStoreDb();
    const partnerId = `ptn_${randomUUID()}`;
    const broken: WalletSnapshots = {
      latest: () => Promise.reject(new Error('connection refused')),
      save: () => Promise.reject(new Error('connection refused')),
      discard: () => Promise.reject(new Error('connection refused')),
    };
    await history(processor(store, broken), partnerId, 12);
    const lane = processor(store, broken);
    expect(refusal(await run(lane, partnerId, debitOf(partnerId, '880.01')))).toBe('insufficient_balance');
    expect(balanceAfter(await run(lane, partnerId, debitOf(partnerId, '880.00')))).toBe('0.00');
  });
});
