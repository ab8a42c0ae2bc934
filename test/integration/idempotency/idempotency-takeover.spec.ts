import { IDEMPOTENCY_STORE, IdempotencyStore } from '../../../src/application/ports/idempotency-store.port';
import { OrderDebit } from '../../../src/application/orders/placement/order-debit';
import { requestHash } from '../../../src/interface/shared/requests/request-hash';
import { metadata } from '../../../src/application/shared/event-envelope';
import { deterministicEventId } from '../../../src/application/shared/event-ids';
import { debitEventId } from '../../../src/application/orders/debit-event-id';
import { WalletCommandProcessor } from '../../../src/application/wallets/wallet-command-processor';
import { Money } from '../../../src/domain/money/money';
import { debitsForKey } from '../../support/ledger';
import { SANDBOX_PHONES, STORES, TestService } from '../../support/test-service';

/**
 * A request that outlives its 10 s lease lets a retry take the key over. If the first
 * request's debit lands while the retry is deciding, the retry must answer with that
 * order: never a 402 that frees the key, never a second debit under the same key.
 */
describe.each(STORES)('a retry that takes over a slow request’s Idempotency-Key (%s store)', (store) => {
  let service: TestService;

  beforeAll(async () => {
    service = await TestService.start({ store });
  }, 120_000);
  afterAll(async () => {
    await service.close();
  });

  /** The debit a request holding the key makes for its order (a 0001 topup), as the placement would. */
  const debitUnderKey = (
    partnerId: string,
    key: string,
    orderId: string,
    amount: string,
    actorId: string,
    eventId = debitEventId(orderId),
  ) =>
    service.app.get(WalletCommandProcessor).execute(partnerId, 'sandbox', {
      command: {
        type: 'DebitWallet',
        orderId,
        amount: Money.parse(amount, 'INR')!,
        reference: null,
        idempotencyKey: key,
        product: { kind: 'topup', operatorId: 101, phone: '+919876540001' },
        at: service.clock.now().toISOString(),
      },
      eventId,
      metadata: metadata({
        partnerId,
        environment: 'sandbox',
        correlationId: orderId,
        actor: { type: 'partner_key', id: actorId },
        at: service.clock.now(),
      }),
    });

  it('answers with the order the first request debited and keeps the key bound to it', async () => {
    const { partnerId, sandboxKey } = await service.createPartner('IN');
    const body = { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 600 };
    const key = 'takeover-key-0001';
    const scope = { partnerId, environment: 'sandbox' as const, key };
    const keys = service.app.get<IdempotencyStore>(IDEMPOTENCY_STORE);
    const debits = service.app.get(OrderDebit);

    // Request A reserved the key and is still working when its lease runs out.
    const first = await keys.reserve(scope, requestHash('topup', body), 'ord_first_request_0001', service.clock.now());
    expect(first).toEqual({ outcome: 'reserved', orderId: 'ord_first_request_0001', lease: expect.any(String) });
    service.clock.advance(11_000);

    // While the retry B looks for an earlier debit and finds none, A's debit lands.
    const debitOfA = () => debitUnderKey(partnerId, key, 'ord_first_request_0001', '600', 'first');
    const original = debits.earlier.bind(debits);
    let interleaved = false;
    debits.earlier = async (orderId: string) => {
      const found = await original(orderId);
      if (!interleaved) {
        interleaved = true;
        expect((await debitOfA()).ok).toBe(true);
      }
      return found;
    };

    const retry = await service.topup(sandboxKey, body, key);
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ order_id: 'ord_first_request_0001', balance_after: '400.00' });
    expect(await keys.lookup(scope)).toEqual({ orderId: 'ord_first_request_0001', statusCode: 200 });

    const otherBody = await service.topup(sandboxKey, { ...body, amount: 300 }, key);
    expect(otherBody.status).toBe(409);
    expect((await service.partner('GET', '/balance', sandboxKey)).body.available).toBe('400.00');
    await service.settle();
    expect((await service.verify()).body).toMatchObject({ ok: true, breaches: [] });
  });

  it('a retry finds the debit a previous release made under the key, by the id debits had then, and debits nothing more', async () => {
    const { partnerId, sandboxKey } = await service.createPartner('IN');
    const body = { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 250 };
    const key = 'takeover-previous-release-0001';
    const keys = service.app.get<IdempotencyStore>(IDEMPOTENCY_STORE);
    // An order id as the service makes them (its creation second first), whose debit has the id before decision 0166.
    const orderId = `ord_${Math.floor(service.clock.now().getTime() / 1000).toString(16)}00c0ffee00d0d0ba`;
    const legacyId = deterministicEventId(orderId, 'WalletDebited');
    expect(debitEventId(orderId)).not.toBe(legacyId);

    const first = await keys.reserve(
      { partnerId, environment: 'sandbox', key },
      requestHash('topup', body),
      orderId,
      service.clock.now(),
    );
    expect(first.outcome).toBe('reserved');
    expect((await debitUnderKey(partnerId, key, orderId, '250', 'previous-release', legacyId)).ok).toBe(true);
    service.clock.advance(11_000);

    const retry = await service.topup(sandboxKey, body, key);
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ order_id: orderId, balance_after: '750.00' });
    expect(await debitsForKey(service, partnerId, key)).toBe(1);
    expect((await service.partner('GET', '/balance', sandboxKey)).body.available).toBe('750.00');
    await service.settle();
    expect((await service.verify()).body).toMatchObject({ ok: true, breaches: [] });
  });

  it('a request that outlived its lease and was refused does not free the key of the retry that took it over: no second debit under the key', async () => {
    const { partnerId, sandboxKey } = await service.createPartner('IN');
    const body = { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 300 };
    const key = 'takeover-release-0001';
    const scope = { partnerId, environment: 'sandbox' as const, key };
    const hash = requestHash('topup', body);
    const keys = service.app.get<IdempotencyStore>(IDEMPOTENCY_STORE);

    // A reserved the key and outlived its lease; retry B took it over for the same order.
    const first = await keys.reserve(scope, hash, 'ord_slow_request_0001', service.clock.now());
    service.clock.advance(11_000);
    const takenOver = await keys.reserve(scope, hash, 'ord_retry_candidate', service.clock.now());
    expect(takenOver).toEqual({ outcome: 'resumed', orderId: 'ord_slow_request_0001', lease: expect.any(String) });
    if (first.outcome !== 'reserved' || takenOver.outcome !== 'resumed') return;

    // A's debit was refused, so A frees the key under its own lease: B's hold stays.
    await keys.release(scope, 'ord_slow_request_0001', first.lease);
    expect(await keys.lookup(scope)).toEqual({ orderId: 'ord_slow_request_0001', statusCode: null });

    // B debits the order and stores its answer; the partner's next retry gets that answer, not a second order.
    const debited = await debitUnderKey(partnerId, key, 'ord_slow_request_0001', '300', 'retry');
    expect(debited.ok).toBe(true);
    await keys.complete(scope, 'ord_slow_request_0001', {
      statusCode: 200,
      body: JSON.stringify({ order_id: 'ord_slow_request_0001' }),
    });

    const again = await service.topup(sandboxKey, body, key);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ order_id: 'ord_slow_request_0001' });
    expect(await debitsForKey(service, partnerId, key)).toBe(1);
    expect((await service.partner('GET', '/balance', sandboxKey)).body.available).toBe('700.00');
    await service.settle();
    expect((await service.verify()).body).toMatchObject({ ok: true, breaches: [] });

    // Released under the lease that holds it, a key is freed.
    const fresh = await keys.reserve(
      { ...scope, key: 'takeover-release-0002' },
      hash,
      'ord_refused_0002',
      service.clock.now(),
    );
    if (fresh.outcome !== 'reserved') throw new Error(`expected a reservation, got ${fresh.outcome}`);
    await keys.release({ ...scope, key: 'takeover-release-0002' }, 'ord_refused_0002', fresh.lease);
    expect(await keys.lookup({ ...scope, key: 'takeover-release-0002' })).toBeNull();
  });
});
