import { v4 as uuid } from 'uuid';
import { GlobalPosition, NewEvent, UntypedEvent } from '../../src/application/ports/event-store.port';
import { SqlEventStore } from '../../src/infrastructure/event-store/sql-event-store';
import { EVENT_LOG_SCRIPTS } from '../../src/infrastructure/event-store/sql-event-store.schema';
import { IDEMPOTENCY_SCHEMA } from '../../src/infrastructure/idempotency/idempotency.schema';
import { applySchema } from '../../src/infrastructure/sql/migrations';
import { PostgresDatabase } from '../../src/infrastructure/sql/postgres-database';
import { SqlDatabase } from '../../src/infrastructure/sql/sql-database';
import { createTestDatabase, TestDatabase } from '../support/postgres-test-database';
import { UNTYPED_EVENTS } from '../support/untyped-events';
import { keyBinding, newEvent } from './event-store-contract-support';

interface Sent {
  text: string;
  rows: number;
}

/** The database, with every statement sent through it and the number of rows it returned kept in `sent`. */
function counting(db: SqlDatabase, sent: Sent[]): SqlDatabase {
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property === 'query')
        return async (text: string, params?: readonly unknown[]) => {
          const rows = await target.query(text, params);
          sent.push({ text, rows: rows.length });
          return rows;
        };
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Events' rows read (with their data), as opposed to their positions only. */
const rowsRead = (sent: readonly Sent[]): number =>
  sent
    .filter(({ text }) => /^\s*SELECT\b/.test(text) && /\bdata\b/.test(text) && /\bes_events\b/.test(text))
    .reduce((total, { rows }) => total + rows, 0);

/** Data a store must give back as JSON gives it back: no `undefined`, dates as text, keys in any order. */
const awkwardData = (): Record<string, unknown> => ({
  amount: '123.4500',
  nested: { list: [1, 'two', { three: null }], empty: {} },
  missing: undefined,
  at: new Date('2026-11-29T10:11:12.345Z'),
  text: 'नमस्ते 😀 "quoted" \\ back',
  zeta: 1,
  a: 2,
});

describe('SqlEventStore: what a projector reads (the events this process appended, from memory)', () => {
  let database: TestDatabase;
  let raw: PostgresDatabase;
  let other: PostgresDatabase;
  const sent: Sent[] = [];
  let store: SqlEventStore<UntypedEvent>;
  let anotherProcess: SqlEventStore<UntypedEvent>;

  beforeAll(async () => {
    database = await createTestDatabase('projector_reads');
    raw = new PostgresDatabase({ connectionString: database.connectionString, maxConnections: 4 });
    other = new PostgresDatabase({ connectionString: database.connectionString, maxConnections: 2 });
    await applySchema(raw, [...EVENT_LOG_SCRIPTS, IDEMPOTENCY_SCHEMA]);
    store = new SqlEventStore(counting(raw, sent), UNTYPED_EVENTS);
    anotherProcess = new SqlEventStore(other, UNTYPED_EVENTS);
  });

  afterAll(async () => {
    await store.close();
    await anotherProcess.close();
    await raw.close();
    await other.close();
    await database.drop();
  });

  const endOfLog = async (): Promise<GlobalPosition | null> => {
    const events = await store.readAll(null, { maxCount: 10_000 });
    return events.length ? events[events.length - 1].position : null;
  };

  const append = (streamId: string, events: NewEvent<UntypedEvent>[], expected: number | 'no_stream') =>
    store.append(streamId, events, expected);

  it('gives the events it appended exactly as a read of the log returns them, without reading their rows', async () => {
    const reader = store.projectorReads('read-models');
    const from = await endOfLog();
    await reader.readAll(from, { maxCount: 100 });
    const wallet = `wallet-${uuid()}`;
    await append(wallet, [newEvent('Credited', awkwardData()), newEvent('Debited', { amount: '1.00' })], 'no_stream');
    await store.appendBindingKeys(`order-${uuid()}`, [newEvent('Placed', awkwardData())], 'no_stream', [
      keyBinding(uuid()),
    ]);
    await store.appendBindingKeys(
      wallet,
      [newEvent('Debited', { amount: '2.00' })],
      1,
      [],
      [{ streamId: `order-${uuid()}`, events: [newEvent('Placed', { n: 1 }), newEvent('Accepted', {})] }],
    );

    sent.length = 0;
    const projected = await reader.readAll(from, { maxCount: 100 });
    expect(rowsRead(sent)).toBe(0);
    const logged = await store.readAll(from, { maxCount: 100 });
    expect(projected).toHaveLength(6);
    expect(projected).toStrictEqual(logged);
    expect(projected[0].data).toStrictEqual({
      amount: '123.4500',
      nested: { list: [1, 'two', { three: null }], empty: {} },
      at: '2026-11-29T10:11:12.345Z',
      text: 'नमस्ते 😀 "quoted" \\ back',
      zeta: 1,
      a: 2,
    });
  });

  it('reads the rows of only the events another process appended in between, and the page is the log as it is', async () => {
    const reader = store.projectorReads('reactions');
    const from = await endOfLog();
    await reader.readAll(from, { maxCount: 100 });
    await append(`wallet-${uuid()}`, [newEvent('Credited', { amount: '5.00' })], 'no_stream');
    await anotherProcess.append(`wallet-${uuid()}`, [newEvent('Credited', { amount: '6.00' })], 'no_stream');
    await append(`wallet-${uuid()}`, [newEvent('Credited', { amount: '7.00' })], 'no_stream');

    sent.length = 0;
    const projected = await reader.readAll(from, { maxCount: 100 });
    expect(rowsRead(sent)).toBe(1);
    expect(projected.map((event) => event.data.amount)).toEqual(['5.00', '6.00', '7.00']);
    expect(projected).toStrictEqual(await store.readAll(from, { maxCount: 100 }));
  });

  it('reads a page of which it holds nothing as rows, as a plain read does', async () => {
    const reader = store.projectorReads('elsewhere');
    await append(`wallet-${uuid()}`, [newEvent('Credited', { amount: '1.00' })], 'no_stream');
    const from = await endOfLog();
    await reader.readAll(from, { maxCount: 100 });
    await anotherProcess.append(`wallet-${uuid()}`, [newEvent('Credited', { amount: '8.00' })], 'no_stream');
    await anotherProcess.append(`wallet-${uuid()}`, [newEvent('Credited', { amount: '9.00' })], 'no_stream');

    sent.length = 0;
    const projected = await reader.readAll(from, { maxCount: 100 });
    expect(rowsRead(sent)).toBe(2);
    expect(projected.map((event) => event.data.amount)).toEqual(['8.00', '9.00']);
    expect(projected).toStrictEqual(await store.readAll(from, { maxCount: 100 }));
  });

  it('gives a page no longer than asked, and nothing past the end of the log', async () => {
    const reader = store.projectorReads('paged');
    const from = await endOfLog();
    await reader.readAll(from, { maxCount: 2 });
    const stream = `wallet-${uuid()}`;
    await append(stream, [newEvent('Credited', { n: 1 }), newEvent('Credited', { n: 2 })], 'no_stream');
    await append(stream, [newEvent('Credited', { n: 3 })], 1);

    sent.length = 0;
    const first = await reader.readAll(from, { maxCount: 2 });
    const rest = await reader.readAll(first[1].position, { maxCount: 2 });
    const after = await reader.readAll(rest[0].position, { maxCount: 2 });
    expect(rowsRead(sent)).toBe(0);
    expect([...first, ...rest].map((event) => event.data.n)).toEqual([1, 2, 3]);
    expect(after).toEqual([]);
  });
});
