import { IDEMPOTENCY_STORE, IdempotencyStore } from '../../src/application/ports/idempotency-store.port';
import { OrderDebit } from '../../src/application/orders/placement/order-debit';
import { requestHash } from '../../src/application/orders/request-hash';
import { metadata } from '../../src/application/shared/event-envelope';
import { deterministicEventId } from '../../src/application/shared/event-ids';
import { WalletCommandProcessor } from '../../src/application/wallets/wallet-command-processor';
import { Money } from '../../src/domain/money/money';
import { SANDBOX_PHONES, STORES, TestService } from '../support/test-service';

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

  it('answers with the order the first request debited and keeps the key bound to it', async () => {
    const { partnerId, sandboxKey } = await service.createPartner('IN');
    const body = { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 600 };
    const key = 'takeover-key-0001';
    const scope = { partnerId, environment: 'sandbox' as const, key };
    const keys = service.app.get<IdempotencyStore>(IDEMPOTENCY_STORE);
    const wallets = service.app.get(WalletCommandProcessor);
    const debits = service.app.get(OrderDebit);

    // Request A reserved the key and is still working when its lease runs out.
    const first = await keys.reserve(scope, requestHash('topup', body), 'ord_first_request_0001', service.clock.now());
    expect(first).toEqual({ outcome: 'reserved', orderId: 'ord_first_request_0001' });
    service.clock.advance(11_000);

    // While the retry B looks for an earlier debit and finds none, A's debit lands.
    const debitOfA = () =>
      wallets.execute(partnerId, 'sandbox', {
        command: {
          type: 'DebitWallet',
          orderId: 'ord_first_request_0001',
          amount: Money.parse('600', 'INR') as Money,
          reference: null,
          idempotencyKey: key,
          product: { kind: 'topup', operatorId: 101, phone: '+919876540001' },
          at: service.clock.now().toISOString(),
        },
        eventId: deterministicEventId('ord_first_request_0001', 'WalletDebited'),
        metadata: metadata({ partnerId, environment: 'sandbox', correlationId: 'ord_first_request_0001', actor: { type: 'partner_key', id: 'first' }, at: service.clock.now() }),
      });
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
});
