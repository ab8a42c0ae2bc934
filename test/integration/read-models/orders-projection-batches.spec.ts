import fc from 'fast-check';
import { RecordedEvent } from '../../../src/application/ports/event-store.port';
import { OrderView, foldOrderView } from '../../../src/domain/transaction/order-view';
import {
  TransactionCommand,
  TransactionState,
  transactionDecider,
} from '../../../src/domain/transaction/transaction.decider';
import { TransactionEvent, transactionStreamId } from '../../../src/domain/transaction/transaction.events';
import { OrderRowEvent, ordersProjection } from '../../../src/infrastructure/read-models/orders.projection';
import { BatchScope, applyEvents } from '../../../src/infrastructure/projections/sql-projection';
import {
  READ_MODEL_TABLES,
  readModelProjections,
} from '../../../src/infrastructure/read-models/read-model-projections';
import { applySchema } from '../../../src/infrastructure/sql/migrations';
import { PostgresDatabase } from '../../../src/infrastructure/sql/postgres-database';
import { SqlExecutor } from '../../../src/infrastructure/sql/sql-database';
import { orderRowEvents } from '../../support/order-row-events';
import { createTestDatabase, TestDatabase } from '../../support/postgres-test-database';

/**
 * The orders read model folds a batch of the log onto the stored rows of its orders (one read, one upsert); the
 * rows must be those that applying the same events one by one, in log order, leaves, and those the domain's
 * order view folds from the whole history, however the log is cut into batches and whatever is replayed.
 */
const PARTNER = 'ptr_batches';
const { recorded, debit, settled, failed, submitted, disputed, refunded } = orderRowEvents(PARTNER);

const t = (second: number) => new Date(Date.UTC(2026, 10, 27, 1, 0, second)).toISOString();

describe('the orders read model, a batch at a time and an event at a time', () => {
  let database: TestDatabase;
  let db: PostgresDatabase;

  beforeAll(async () => {
    database = await createTestDatabase('orders_batches');
    db = new PostgresDatabase({
      connectionString: database.connectionString,
      maxConnections: 2,
      applicationName: 'test',
    });
    await applySchema(db, [ordersProjection.schema]);
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  const applyBatch = (events: readonly RecordedEvent<OrderRowEvent>[], tx: SqlExecutor): Promise<void> => {
    if (!ordersProjection.applyBatch) throw new Error('the orders read model applies batches');
    return ordersProjection.applyBatch(events, tx, new BatchScope());
  };

  const rows = () =>
    db.query<Record<string, unknown>>(
      `SELECT order_id, status, operator_ref, settled_at, refunded_at, failure_reason, created_at, updated_at, held_at,
              balance_after::text AS balance_after
         FROM rm_orders ORDER BY order_id`,
    );

  it('leaves the same rows either way: outcomes in the batch of their debit, after it, submissions, holds and refunds', async () => {
    const first = [
      // Answered in the debit's commit (sandbox 0001, 0002).
      debit('ord_a', t(1), '990.00'),
      settled('ord_a', t(1)),
      debit('ord_b', t(2), '980.00'),
      failed('ord_b', t(2)),
      // Submitted, then answered, in the same batch.
      debit('ord_c', t(3), '970.00'),
      submitted('ord_c', t(4)),
      settled('ord_c', t(5)),
      // Open at the end of the batch.
      debit('ord_d', t(6), '960.00'),
      submitted('ord_d', t(7)),
      // Held before any outcome: no folding.
      debit('ord_e', t(8), '950.00'),
      disputed('ord_e', t(9)),
      settled('ord_e', t(10)),
      // Failed and refunded in the same batch.
      debit('ord_f', t(11), '940.00'),
      failed('ord_f', t(12)),
      refunded('ord_f', t(13), '950.00'),
      refunded('ord_b', t(14), '960.00'),
    ];
    const second = [settled('ord_d', t(20)), debit('ord_g', t(21), '950.00')];

    for (const batch of [first, second]) await db.transaction((tx) => applyBatch(batch, tx));
    const batched = await rows();

    await db.exec('TRUNCATE rm_orders');
    for (const event of [...first, ...second])
      await db.transaction((tx) => ordersProjection.apply(event, tx, new BatchScope()));
    const oneByOne = await rows();

    expect(batched).toEqual(oneByOne);
    expect(batched.map((row) => [row.order_id, row.status])).toEqual([
      ['ord_a', 'SUCCESS'],
      ['ord_b', 'FAILED'],
      ['ord_c', 'SUCCESS'],
      ['ord_d', 'SUCCESS'],
      ['ord_e', 'SUCCESS'],
      ['ord_f', 'FAILED'],
      ['ord_g', 'INITIATED'],
    ]);
  });

  it('reads the stored rows of the orders a batch moves, not of those it places', async () => {
    await db.exec('TRUNCATE rm_orders');
    const readFor: unknown[] = [];
    const counting = (tx: SqlExecutor): SqlExecutor => ({
      query: (text, params) => {
        if (text.includes('FROM rm_orders')) readFor.push(params?.[0]);
        return tx.query(text, params);
      },
    });
    await db.transaction((tx) => applyBatch([debit('ord_x', t(1), '990.00'), submitted('ord_x', t(2))], counting(tx)));
    expect(readFor).toEqual([]);

    await db.transaction((tx) =>
      applyBatch(
        [
          debit('ord_y', t(3), '980.00'),
          settled('ord_y', t(3)),
          settled('ord_x', t(4)),
          debit('ord_z', t(5), '970.00'),
        ],
        counting(tx),
      ),
    );
    expect(readFor).toEqual([['ord_x']]);
    expect((await rows()).map((row) => [row.order_id, row.status, row.balance_after])).toEqual([
      ['ord_x', 'SUCCESS', '990.0000'],
      ['ord_y', 'SUCCESS', '980.0000'],
      ['ord_z', 'INITIATED', '970.0000'],
    ]);
  });

  it('leaves the rows the order view folds from the whole history, in any batches, with any suffix replayed', async () => {
    await fc.assert(
      fc.asyncProperty(historiesInBatches(), async ({ history, batches }) => {
        await db.exec('TRUNCATE rm_orders');
        for (const batch of batches)
          await db.transaction((tx) =>
            batch.length === 1 ? ordersProjection.apply(batch[0], tx, new BatchScope()) : applyBatch(batch, tx),
          );
        const orderIds = [...new Set(history.map((event) => event.data.orderId))].sort();
        const folded = orderIds.map((orderId) => foldOrderView(orderId, history)).filter((view) => view !== null);
        expect(await wholeRows()).toEqual(folded.map(asStored));
      }),
      { seed: 39, numRuns: 100 },
    );
  }, 120_000);

  const wholeRows = () =>
    db.query<Record<string, unknown>>(
      `SELECT order_id, partner_id, environment, kind, status, amount::text AS amount, currency, product, reference,
              balance_after::text AS balance_after, provider, operator_ref, settled_at, refunded_at, failure_reason,
              held_at, late_answer, answer_after_outcome, created_at, updated_at
         FROM rm_orders ORDER BY order_id`,
    );
});

const KINDS = [
  'debit',
  'submit',
  'settle',
  'fail',
  'refuse',
  'in doubt',
  'hold',
  'mismatch',
  'resolve success',
  'resolve failed',
  'refund',
  'answer after hold',
] as const;
type Kind = (typeof KINDS)[number];

const handled: ReadonlySet<string> = ordersProjection.handles;

const OPERATOR = { type: 'operator', id: 'op_1' } as const;

/** The command a step gives an order's decider (null: the step is the wallet's, or the log's of old). */
function commandOf(kind: Kind, at: string): TransactionCommand | null {
  switch (kind) {
    case 'submit':
      return { type: 'RecordSubmission', providerReference: 'p-1', at };
    case 'settle':
      return { type: 'SettleTransaction', operatorRef: `op-${at}`, at };
    case 'fail':
      return { type: 'FailTransaction', reason: 'declined', basis: 'provider_record', at };
    case 'refuse':
      return { type: 'FailTransaction', reason: 'refused', basis: 'refused', at };
    case 'in doubt':
      return { type: 'RecordAttemptInDoubt', reason: 'timeout', at };
    case 'hold':
      return { type: 'HoldTransaction', reason: 'stuck', at };
    case 'mismatch':
      return {
        type: 'HoldOnMismatch',
        mismatch: { reason: 'amount', operatorRef: 'op-x', transactionId: 't-1', amount: '9.00', currency: 'INR', at },
      };
    case 'resolve success':
    case 'resolve failed':
      return {
        type: 'ResolveTransaction',
        outcome: kind === 'resolve success' ? 'success' : 'failed',
        reason: 'checked',
        operator: OPERATOR,
        at,
      };
    default:
      return null;
  }
}

/**
 * Orders' histories as the service writes them: each order's debit, then its own stream's events as its decider
 * decides them from the steps' commands, its refund once it failed, and (as logs of old have it) the provider's
 * answer after a hold. The events the read model does not handle are left out, as the projector leaves them.
 */
function historyOf(steps: readonly { order: number; kind: Kind }[]): RecordedEvent<OrderRowEvent>[] {
  const orders = new Map<number, { state: TransactionState; refunded: boolean }>();
  return steps.flatMap(({ order, kind }, index): RecordedEvent<OrderRowEvent>[] => {
    const orderId = `ord_p${order}`;
    const at = t(index);
    const known = orders.get(order);
    if (!known) {
      if (kind !== 'debit') return [];
      const initiated = transactionDecider.decide(
        { type: 'InitiateTransaction', order: { ...ORDER, orderId, placedAt: at } },
        transactionDecider.initialState,
      );
      if (!initiated.ok) throw new Error('an order is always initiated');
      orders.set(order, {
        state: initiated.events.reduce(transactionDecider.evolve, transactionDecider.initialState),
        refunded: false,
      });
      return [debit(orderId, at, `${900 - index}.00`)];
    }
    if (kind === 'refund') {
      if (known.state.status !== 'FAILED' || known.refunded) return [];
      known.refunded = true;
      return [refunded(orderId, at, `${910 - index}.00`)];
    }
    if (kind === 'answer after hold') {
      if (known.state.status !== 'DISPUTED') return [];
      const data = { orderId, outcome: 'failed' as const, operatorRef: null, reason: 'late', answeredAt: at };
      return [recorded(transactionStreamId(orderId), { type: 'ProviderAnsweredAfterHold', data }, at)];
    }
    const command = commandOf(kind, at);
    const decision = command ? transactionDecider.decide(command, known.state) : null;
    if (!decision?.ok) return [];
    known.state = decision.events.reduce(transactionDecider.evolve, known.state);
    return decision.events
      .filter((event): event is Extract<TransactionEvent, OrderRowEvent> => handled.has(event.type))
      .map((event) => recorded(transactionStreamId(orderId), event, at));
  });
}

const ORDER = {
  partnerId: PARTNER,
  environment: 'sandbox',
  amount: '10.00',
  currency: 'INR',
  reference: null,
  product: { kind: 'topup', operatorId: 101, phone: '+919876540001' },
} as const;

/** A history of up to three orders, cut into batches, then a suffix of it cut again and applied once more (a replay). */
const historiesInBatches = () =>
  fc
    .tuple(
      fc.array(fc.record({ order: fc.integer({ min: 0, max: 2 }), kind: fc.constantFrom(...KINDS) }), {
        minLength: 5,
        maxLength: 30,
        size: 'max',
      }),
      fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 10 }),
      fc.nat(),
    )
    .map(([steps, sizes, cut]) => {
      const history = historyOf(steps);
      return {
        history,
        batches: [...cutInto(history, sizes), ...cutInto(history.slice(cut % (history.length + 1)), sizes)],
      };
    });

function cutInto<T>(events: readonly T[], sizes: readonly number[]): T[][] {
  const batches: T[][] = [];
  for (let start = 0, index = 0; start < events.length; index += 1) {
    const size = sizes[index % sizes.length];
    batches.push(events.slice(start, start + size));
    start += size;
  }
  return batches;
}

/** A folded view as the row reads back: amounts at the column's scale, times as dates. */
function asStored(view: OrderView): Record<string, unknown> {
  const date = (at: string | null) => (at === null ? null : new Date(at));
  return {
    order_id: view.orderId,
    partner_id: view.partnerId,
    environment: view.environment,
    kind: view.product.kind,
    status: view.status,
    amount: Number(view.amount).toFixed(4),
    currency: view.currency,
    product: view.product,
    reference: view.reference,
    balance_after: Number(view.balanceAfter).toFixed(4),
    provider: view.provider,
    operator_ref: view.operatorRef,
    settled_at: date(view.settledAt),
    refunded_at: date(view.refundedAt),
    failure_reason: view.failureReason,
    held_at: date(view.heldAt),
    late_answer: view.lateAnswer,
    answer_after_outcome: view.answerAfterOutcome,
    created_at: date(view.createdAt),
    updated_at: date(view.updatedAt),
  };
}

describe('the read models of one batch', () => {
  let database: TestDatabase;
  let db: PostgresDatabase;
  const projections = readModelProjections();

  beforeAll(async () => {
    database = await createTestDatabase('orders_of_batch');
    db = new PostgresDatabase({ connectionString: database.connectionString, maxConnections: 2 });
    await applySchema(
      db,
      READ_MODEL_TABLES.map((tables) => tables.schema),
    );
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  /** Applies the batch as the projector does, one scope for all its read models or one each; counts reads of rm_orders. */
  const applyAll = async (events: readonly RecordedEvent[], scope: 'shared' | 'each its own'): Promise<number> => {
    const statements: string[] = [];
    await db.transaction(async (tx) => {
      const recorded: SqlExecutor = {
        query: <Row extends object>(text: string, params?: readonly unknown[]) => {
          statements.push(text);
          return tx.query<Row>(text, params);
        },
      };
      const batch = new BatchScope();
      for (const projection of projections)
        await applyEvents(projection, events, recorded, scope === 'shared' ? batch : new BatchScope());
    });
    return statements.filter((text) => text.includes('FROM rm_orders')).length;
  };

  const contents = async () => ({
    orders: await db.query<Record<string, unknown>>('SELECT * FROM rm_orders ORDER BY order_id'),
    feed: await db.query<Record<string, unknown>>(
      'SELECT * FROM rm_partner_events ORDER BY commit_position, prepare_position',
    ),
    daily: await db.query<Record<string, unknown>>(
      'SELECT * FROM rm_order_daily_stats ORDER BY day, outcome, operator, provider',
    ),
  });

  it('read their orders once and leave what each reading them on its own leaves, a replayed batch counted once', async () => {
    const placed = [debit('ord_p', t(30), '990.00'), debit('ord_q', t(31), '980.00'), debit('ord_r', t(32), '970.00')];
    const answered = [
      submitted('ord_p', t(33)),
      settled('ord_p', t(34)),
      failed('ord_q', t(35)),
      refunded('ord_q', t(36), '990.00'),
      disputed('ord_r', t(37)),
      debit('ord_s', t(38), '980.00'),
      settled('ord_s', t(39)),
    ];

    // The second batch is applied twice (a replay): it changes no row, not even the counters.
    const reads = [];
    for (const batch of [placed, answered, answered]) reads.push(await applyAll(batch, 'shared'));
    const shared = await contents();

    await db.exec('TRUNCATE rm_orders, rm_partner_events, rm_order_daily_stats, rm_balances');
    for (const batch of [placed, answered]) await applyAll(batch, 'each its own');
    const separately = await contents();

    // A batch that only places orders reads none: no row of an order can be stored before its debit is applied.
    expect(reads).toEqual([0, 1, 1]);
    expect(shared).toEqual(separately);
    expect(shared.feed.map((entry) => [entry.order_id, entry.event])).toEqual([
      ['ord_p', 'transaction.succeeded'],
      ['ord_q', 'transaction.failed'],
      ['ord_s', 'transaction.succeeded'],
    ]);
    expect(shared.daily.map((row) => [row.outcome, row.orders, row.amount])).toEqual([
      ['failed', '1', '10.0000'],
      ['held', '1', '10.0000'],
      ['placed', '4', '40.0000'],
      ['refunded', '1', '10.0000'],
      ['succeeded', '2', '20.0000'],
    ]);
  });

  it('count every event once, in any batches, with any suffix replayed', async () => {
    const emptied = () => db.exec('TRUNCATE rm_orders, rm_partner_events, rm_order_daily_stats, rm_balances');
    await fc.assert(
      fc.asyncProperty(historiesInBatches(), async ({ history, batches }) => {
        await emptied();
        await applyAll(history, 'shared');
        const once = await contents();
        await emptied();
        for (const batch of batches) await applyAll(batch, 'shared');
        expect(await contents()).toEqual(once);
      }),
      { seed: 154, numRuns: 40 },
    );
  }, 120_000);
});
