import { randomUUID } from 'node:crypto';
import {
  AppendOptions,
  EventStore,
  ExpectedRevision,
  GlobalPosition,
  NewEvent,
  ReadAllOptions,
  RecordedEvent,
} from '../../src/application/ports/event-store.port';
import { WalletSnapshot, WalletSnapshots } from '../../src/application/ports/wallet-snapshots.port';
import { metadata } from '../../src/application/shared/event-envelope';
import { WalletCommandEnvelope } from '../../src/application/wallets/wallet-command-processor';
import { Money } from '../../src/domain/money/money';
import { LogEvent } from '../../src/domain/log-events';
import { EventStream } from '../../src/domain/shared/event-types';

const AT = new Date('2026-03-01T00:00:00.000Z');

const money = (text: string): Money => {
  const amount = Money.parse(text, 'INR');
  if (!amount) throw new Error(`bad test amount ${text}`);
  return amount;
};

const envelopeOf = (partnerId: string, command: WalletCommandEnvelope['command']): WalletCommandEnvelope => ({
  command,
  eventId: randomUUID(),
  metadata: metadata({
    partnerId,
    environment: 'sandbox',
    correlationId: randomUUID(),
    actor: { type: 'system', id: 'test' },
    at: AT,
  }),
});

/** An operator credit of an INR wallet, as the lane takes it. */
export const creditOf = (partnerId: string, amount: string): WalletCommandEnvelope =>
  envelopeOf(partnerId, {
    type: 'CreditWallet',
    creditId: randomUUID(),
    amount: money(amount),
    kind: 'funding',
    reference: 'test',
    at: AT.toISOString(),
  });

/** A topup's debit of an INR wallet, as the lane takes it. */
export const debitOf = (partnerId: string, amount: string): WalletCommandEnvelope => {
  const orderId = `ord_${randomUUID()}`;
  return envelopeOf(partnerId, {
    type: 'DebitWallet',
    orderId,
    amount: money(amount),
    reference: null,
    idempotencyKey: `key-${orderId}`,
    product: { kind: 'topup', operatorId: 101, phone: '+919876540001' },
    at: AT.toISOString(),
  });
};

/** An event store that counts what its streams' reads return: how much of a wallet a process folded. */
export class CountingEventStore implements EventStore {
  /** Each readStream: the revision it read from, the most it asked for, the events it got. */
  readonly reads: { from: number; max?: number; got: number }[] = [];

  constructor(private readonly store: EventStore) {}

  /** Events returned by readStream, per read. */
  get streamReads(): number[] {
    return this.reads.map((read) => read.got);
  }

  get eventsRead(): number {
    return this.streamReads.reduce((sum, count) => sum + count, 0);
  }

  readStream(streamId: string, fromRevision?: number, maxCount?: number): Promise<RecordedEvent[]>;
  readStream<Held extends LogEvent>(
    stream: EventStream<Held>,
    fromRevision?: number,
    maxCount?: number,
  ): Promise<RecordedEvent<Held>[]>;
  async readStream(stream: string | EventStream<LogEvent>, fromRevision?: number, maxCount?: number) {
    const events = await (typeof stream === 'string'
      ? this.store.readStream(stream, fromRevision, maxCount)
      : this.store.readStream(stream, fromRevision, maxCount));
    this.reads.push({ from: fromRevision ?? 0, max: maxCount, got: events.length });
    return events;
  }

  append<Appended extends LogEvent>(
    streamId: string,
    events: readonly NewEvent<Appended>[],
    expected: ExpectedRevision,
    options?: AppendOptions,
  ) {
    return this.store.append(streamId, events, expected, options);
  }
  readLastEvent(streamId: string): Promise<RecordedEvent | null>;
  readLastEvent<Held extends LogEvent>(stream: EventStream<Held>): Promise<RecordedEvent<Held> | null>;
  readLastEvent(stream: string | EventStream<LogEvent>) {
    return typeof stream === 'string' ? this.store.readLastEvent(stream) : this.store.readLastEvent(stream);
  }
  readAll(after: GlobalPosition | null, options: ReadAllOptions) {
    return this.store.readAll(after, options);
  }
  subscribe(listener: () => void) {
    return this.store.subscribe(listener);
  }
  close() {
    return this.store.close();
  }
}

/** Snapshots in memory, with the table's rules (a save replaces only a lower revision), for the unit tier. */
export class InMemoryWalletSnapshots implements WalletSnapshots {
  readonly rows = new Map<string, WalletSnapshot>();
  saves = 0;

  latest(streamId: string): Promise<WalletSnapshot | null> {
    const row = this.rows.get(streamId);
    return Promise.resolve(row ? structuredClone(row) : null);
  }

  save(streamId: string, snapshot: WalletSnapshot): Promise<void> {
    this.saves += 1;
    const row = this.rows.get(streamId);
    if (!row || row.revision < snapshot.revision) this.rows.set(streamId, structuredClone(snapshot));
    return Promise.resolve();
  }

  discard(streamId: string, snapshot: WalletSnapshot): Promise<void> {
    const row = this.rows.get(streamId);
    const same =
      row?.revision === snapshot.revision &&
      row.eventId === snapshot.eventId &&
      row.foldVersion === snapshot.foldVersion;
    if (same) this.rows.delete(streamId);
    return Promise.resolve();
  }
}
