import { JSON_ORDER_ANSWERS } from '../../../src/interface/shared/order-resources';
import { randomUUID } from 'node:crypto';
import { Caller } from '../../../src/application/auth/caller';
import { LOG_EVENT_DECODER } from '../../../src/application/ports/event-decoder.port';
import { IDEMPOTENCY_WINDOW_MS, IdempotencyScope } from '../../../src/application/ports/idempotency-store.port';
import { KeyReservedAroundTheDebit } from '../../../src/application/orders/placement/key-reserved-around-the-debit';
import { OrderDebit, OrderDraft } from '../../../src/application/orders/placement/order-debit';
import { ReservedKeyPlacement } from '../../../src/application/orders/placement/reserved-key-placement';
import { ServiceError } from '../../../src/application/shared/service-error';
import { metadata } from '../../../src/application/shared/event-envelope';
import { WalletCommandProcessor } from '../../../src/application/wallets/wallet-command-processor';
import { OrderRouting } from '../../../src/application/routing/order-routing';
import { ProviderBreakers } from '../../../src/application/routing/provider-breakers';
import { RouteBook } from '../../../src/application/routing/route-book';
import { StaticProviderDirectory } from '../../../src/infrastructure/providers/provider-directory';
import { SandboxProvider } from '../../../src/infrastructure/providers/sandbox/sandbox-provider';
import { Money } from '../../../src/domain/money/money';
import { walletStreamId } from '../../../src/domain/wallet/wallet.stream';
import { ManualClock } from '../../support/manual-clock';
import { EventStoreDbEventStore } from '../../../src/infrastructure/event-store/eventstoredb-event-store';
import { IDEMPOTENCY_SCHEMA } from '../../../src/infrastructure/idempotency/idempotency.schema';
import { SqlIdempotencyStore } from '../../../src/infrastructure/idempotency/sql-idempotency-store';
import { CryptoSecretGenerator } from '../../../src/infrastructure/security/crypto-secret-generator';
import { applySchema } from '../../../src/infrastructure/sql/migrations';
import { PostgresDatabase } from '../../../src/infrastructure/sql/postgres-database';
import { createTestDatabase } from '../../support/postgres-test-database';
import { FakeEventStoreDbClient } from '../../unit/infrastructure/event-store/fake-eventstoredb-client';

/*
 * The key placement bound for EventStoreDB, whose events cannot share a commit with the key table: the key is
 * reserved in PostgreSQL before the debit and answered after it. Run on the EventStoreDB adapter over its
 * in-memory client stand-in, with the real idempotency table.
 */
describe('orders on EventStoreDB: the Idempotency-Key reserved around the debit', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: PostgresDatabase;
  let store: EventStoreDbEventStore;
  let wallets: WalletCommandProcessor;
  let placement: KeyReservedAroundTheDebit;
  let routing: OrderRouting;
  const clock = new ManualClock(new Date('2026-03-01T00:00:00.000Z'));

  beforeAll(async () => {
    database = await createTestDatabase('key_placement_esdb');
    db = new PostgresDatabase({ connectionString: database.connectionString, maxConnections: 4 });
    await applySchema(db, [IDEMPOTENCY_SCHEMA]);
    store = new EventStoreDbEventStore(new FakeEventStoreDbClient(), LOG_EVENT_DECODER, { watchRemoteAppends: false });
    // No KeyBindingAppend: this store binds no key in the commit of its events.
    wallets = new WalletCommandProcessor(store);
    const idempotency = new SqlIdempotencyStore(db, { windowMs: IDEMPOTENCY_WINDOW_MS, leaseMs: 10_000 });
    const settings = {
      stuckOrderAfterMs: 600_000,
      billValidityMs: 600_000,
      idempotencyWaitMs: 200,
      walletSnapshotEvery: 1_000,
      eventStreamsPerKey: 2,
      eventStreamsPerPartner: 10,
      reconciliationAt: null,
    };
    routing = new OrderRouting(
      new StaticProviderDirectory(new SandboxProvider(), new Map()),
      new RouteBook(store),
      new ProviderBreakers(clock),
    );
    const debit = new OrderDebit(clock, store, wallets, routing, JSON_ORDER_ANSWERS);
    const reserved = new ReservedKeyPlacement(clock, idempotency, new CryptoSecretGenerator(), settings, debit);
    placement = new KeyReservedAroundTheDebit(clock, idempotency, debit, reserved);
  });

  afterAll(async () => {
    await store?.close();
    await db?.close();
    await database?.drop();
  });

  const inr = (text: string): Money => {
    const amount = Money.parse(text, 'INR');
    if (!amount) throw new Error(`bad amount ${text}`);
    return amount;
  };

  async function fundedCaller(balance: string): Promise<Caller> {
    const partnerId = `ptr_${randomUUID()}`;
    await wallets.execute(partnerId, 'sandbox', {
      command: {
        type: 'CreditWallet',
        creditId: randomUUID(),
        amount: inr(balance),
        kind: 'funding',
        reference: 'test',
        at: clock.now().toISOString(),
      },
      eventId: randomUUID(),
      metadata: metadata({
        partnerId,
        environment: 'sandbox',
        correlationId: randomUUID(),
        actor: { type: 'system', id: 'test' },
        at: clock.now(),
      }),
    });
    return {
      partnerId,
      environment: 'sandbox',
      keyId: 'key_test',
      restriction: null,
      corridor: 'IN',
      currency: 'INR',
      requestId: randomUUID(),
    };
  }

  const topup = (amount: string): OrderDraft => ({
    amount: inr(amount),
    reference: null,
    product: { kind: 'topup', operatorId: 101, phone: '+919876540001' },
    route: null,
  });
  const scopeOf = (caller: Caller, key: string): IdempotencyScope => ({
    partnerId: caller.partnerId,
    environment: caller.environment,
    key,
  });
  const debits = async (caller: Caller): Promise<number> =>
    (await store.readStream(walletStreamId(caller.partnerId, 'sandbox'))).filter(
      (event) => event.type === 'WalletDebited',
    ).length;

  it('debits once, and answers a repeat with the first answer byte for byte without checking the request again', async () => {
    const caller = await fundedCaller('100.00');
    const scope = scopeOf(caller, `key-${randomUUID()}`);
    const first = await placement.place(caller, scope, 'hash-a', () => Promise.resolve(topup('40.00')));
    expect(first.replayed).toBe(false);
    expect(JSON.parse(first.body)).toMatchObject({ status: 'PENDING', balance_after: '60.00' });
    let checkedAgain = false;
    const repeat = await placement.place(caller, scope, 'hash-a', () => {
      checkedAgain = true;
      return Promise.resolve(topup('40.00'));
    });
    expect(repeat).toEqual({ body: first.body, replayed: true });
    expect(checkedAgain).toBe(false);
    expect(await debits(caller)).toBe(1);
  });

  it('refuses the same key with another body (409) and moves no money', async () => {
    const caller = await fundedCaller('100.00');
    const scope = scopeOf(caller, `key-${randomUUID()}`);
    await placement.place(caller, scope, 'hash-a', () => Promise.resolve(topup('10.00')));
    const conflict = await placement
      .place(caller, scope, 'hash-b', () => Promise.resolve(topup('20.00')))
      .catch((error: unknown) => error);
    expect(conflict).toBeInstanceOf(ServiceError);
    expect((conflict as ServiceError).code).toBe('idempotency_conflict');
    expect(await debits(caller)).toBe(1);
  });

  it('releases the key of a refused debit (402), so the same key may be used again', async () => {
    const caller = await fundedCaller('5.00');
    const scope = scopeOf(caller, `key-${randomUUID()}`);
    const refused = await placement
      .place(caller, scope, 'hash-a', () => Promise.resolve(topup('10.00')))
      .catch((error: unknown) => error);
    expect((refused as ServiceError).code).toBe('insufficient_balance');
    expect(await debits(caller)).toBe(0);
    const placed = await placement.place(caller, scope, 'hash-a', () => Promise.resolve(topup('5.00')));
    expect(placed.replayed).toBe(false);
    expect(await debits(caller)).toBe(1);
  });

  it('writes nothing when a command asks the wallet to bind its key in the commit (this store has no key binding)', async () => {
    const caller = await fundedCaller('100.00');
    const debit = new OrderDebit(clock, store, wallets, routing, JSON_ORDER_ANSWERS);
    const outcome = await debit
      .run(caller, `ord_${randomUUID()}`, 'key-bound', topup('10.00'), {
        scope: scopeOf(caller, 'key-bound'),
        requestHash: 'hash-a',
      })
      .catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(Error);
    expect(await debits(caller)).toBe(0);
  });
});
