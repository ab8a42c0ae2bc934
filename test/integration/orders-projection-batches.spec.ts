import { EventMetadata, RecordedEvent } from '../../src/application/ports/event-store.port';
import { walletStreamId } from '../../src/domain/wallet/wallet.stream';
import { transactionStreamId } from '../../src/domain/transaction/transaction.events';
import { OrderRowEvent, ordersProjection } from '../../src/infrastructure/read-models/orders.projection';
import { applySchema } from '../../src/infrastructure/sql/migrations';
import { PostgresDatabase } from '../../src/infrastructure/sql/postgres-database';
import { SqlExecutor } from '../../src/infrastructure/sql/sql-database';
import { createTestDatabase, TestDatabase } from '../support/postgres-test-database';

/**
 * The orders read model applies a batch of the log in a few statements (debits first, an order's outcome folded
 * into its new row when it follows in the same batch); the rows must be those that applying the same events one
 * by one, in log order, leaves — what partners and operators read.
 */
const PARTNER = 'ptr_batches';
const WALLET = walletStreamId(PARTNER, 'sandbox');
let position = 0n;

function recorded(streamId: string, event: OrderRowEvent, at: string): RecordedEvent<OrderRowEvent> {
  position += 1n;
  const metadata: EventMetadata = {
    partnerId: PARTNER,
    environment: 'sandbox',
    correlationId: 'x',
    causationId: null,
    actor: { type: 'system', id: 'test' },
    // Recorded a moment after the time its data names, as a settlement's append is.
    occurredAt: new Date(Date.parse(at) + 250).toISOString(),
  };
  return {
    ...event,
    eventId: `00000000-0000-4000-8000-${position.toString().padStart(12, '0')}`,
    schemaVersion: 1,
    metadata,
    streamId,
    revision: Number(position),
    position: { commit: position, prepare: position },
    recordedAt: at,
  };
}

const debit = (orderId: string, at: string, balanceAfter: string) =>
  recorded(
    WALLET,
    {
      type: 'WalletDebited',
      data: {
        orderId,
        amount: '10.00',
        currency: 'INR',
        balanceAfter,
        reference: `ref-${orderId}`,
        idempotencyKey: `key-${orderId}`,
        product: { kind: 'topup', operatorId: 101, phone: '+919876540001' },
        placedAt: at,
      },
    },
    at,
  );
const settled = (orderId: string, at: string) =>
  recorded(
    transactionStreamId(orderId),
    {
      type: 'TransactionSettled',
      data: { orderId, operatorRef: `op-${orderId}`, settledAt: at, resolvedBy: null, reason: null },
    },
    at,
  );
const failed = (orderId: string, at: string) =>
  recorded(
    transactionStreamId(orderId),
    {
      type: 'TransactionFailed',
      data: { orderId, reason: `declined ${orderId}`, failedAt: at, resolvedBy: null, basis: 'provider_record' },
    },
    at,
  );
const submitted = (orderId: string, at: string) =>
  recorded(
    transactionStreamId(orderId),
    { type: 'TransactionSubmitted', data: { orderId, providerReference: `p-${orderId}`, submittedAt: at } },
    at,
  );
const disputed = (orderId: string, at: string) =>
  recorded(
    transactionStreamId(orderId),
    { type: 'TransactionDisputed', data: { orderId, reason: 'stuck', disputedAt: at } },
    at,
  );
const refunded = (orderId: string, at: string, balanceAfter: string) =>
  recorded(
    WALLET,
    {
      type: 'WalletRefunded',
      data: { orderId, amount: '10.00', currency: 'INR', balanceAfter, reason: 'failed', refundedAt: at },
    },
    at,
  );

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
    return ordersProjection.applyBatch(events, tx);
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
    for (const event of [...first, ...second]) await db.transaction((tx) => ordersProjection.apply(event, tx));
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
});
