import { ManualClock } from '../../support/manual-clock';
import { orderEvents } from '../../support/ledger';
import { ServicesOnOneDatabase } from '../../support/services-on-one-database';
import { SANDBOX_PHONES, TestService } from '../../support/test-service';

const SETTLEMENT_DELAY_MS = 30_000;

describe('delayed sandbox settlement is durable across processes (postgres store)', () => {
  let services: ServicesOnOneDatabase;
  const start = (clock: ManualClock): Promise<TestService> => services.start({ clock });
  const stop = (service: TestService): Promise<void> => services.stop(service);

  beforeEach(async () => {
    services = await ServicesOnOneDatabase.create('timers');
  });
  afterEach(async () => {
    await services.close();
  });

  const topup = (service: TestService, token: string, suffix: string, idempotencyKey: string, amount = 100) =>
    service.topup(token, { operator_id: 101, phone: SANDBOX_PHONES.IN(suffix), amount }, idempotencyKey);

  it('a 0003 order placed before a restart still succeeds 30 seconds later, settled by the process that replaced it', async () => {
    const placedAt = new Date('2026-03-02T09:00:00.000Z');
    const before = await start(new ManualClock(placedAt));
    const { sandboxKey } = await before.createPartner('IN');
    const placed = await topup(before, sandboxKey, '0003', 'restart-0003-01');
    expect(placed.status).toBe(200);
    await before.settle();
    await before.advance(SETTLEMENT_DELAY_MS - 5_000);
    expect((await before.partner('GET', `/transactions/${placed.body.order_id}`, sandboxKey)).body.status).toBe(
      'PENDING',
    );
    await stop(before);

    const after = await start(new ManualClock(new Date(placedAt.getTime() + SETTLEMENT_DELAY_MS)));
    expect((await after.partner('GET', `/transactions/${placed.body.order_id}`, sandboxKey)).body.status).toBe(
      'PENDING',
    );
    await after.settle();

    const final = await after.partner('GET', `/transactions/${placed.body.order_id}`, sandboxKey);
    expect(final.body).toMatchObject({ status: 'SUCCESS', refunded_at: null });
    expect(final.body.operator_ref).toEqual(expect.any(String));
    expect(final.body.settled_at).toEqual(expect.any(String));
    expect((await after.partner('GET', '/balance', sandboxKey)).body.available).toBe('900.00');
    expect(await orderEvents(after, placed.body.order_id, 'TransactionSettled')).toHaveLength(1);
    expect((await after.verify()).body).toMatchObject({ ok: true, breaches: [] });
  });

  it('0004 orders whose timers fire while two processes work at once fail once and are refunded once each', async () => {
    const clock = new ManualClock(new Date('2026-03-02T10:00:00.000Z'));
    const first = await start(clock);
    const second = await start(clock);
    const { sandboxKey } = await first.createPartner('IN');

    const orderIds: string[] = [];
    for (let i = 0; i < 8; i++) {
      const placed = await topup(i % 2 === 0 ? first : second, sandboxKey, '0004', `two-timers-${i}`, 50);
      expect(placed.status).toBe(200);
      orderIds.push(placed.body.order_id);
    }
    await Promise.all([first.settle(), second.settle()]);
    expect((await first.partner('GET', '/balance', sandboxKey)).body.available).toBe('600.00');

    clock.advance(SETTLEMENT_DELAY_MS);
    await Promise.all([first.settle(), second.settle(), first.settle(), second.settle()]);
    await Promise.all([first.settle(), second.settle()]);

    for (const orderId of orderIds) {
      expect(await orderEvents(first, orderId, 'TransactionFailed')).toHaveLength(1);
      expect(await orderEvents(first, orderId, 'WalletRefunded')).toHaveLength(1);
      const status = await second.partner('GET', `/transactions/${orderId}`, sandboxKey);
      expect(status.body).toMatchObject({ status: 'FAILED', settled_at: null });
      expect(status.body.refunded_at).toEqual(expect.any(String));
    }
    expect((await first.partner('GET', '/balance', sandboxKey)).body.available).toBe('1000.00');
    expect((await second.partner('GET', '/balance', sandboxKey)).body.available).toBe('1000.00');
    expect((await first.verify()).body).toMatchObject({ ok: true, breaches: [] });
    expect((await second.verify()).body).toMatchObject({ ok: true, breaches: [] });
  });
});
