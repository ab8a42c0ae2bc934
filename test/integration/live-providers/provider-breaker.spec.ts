import { expectRefusal } from '../../support/error-assertions';
import { orderEvents } from '../../support/ledger';
import {
  LiveUpstream,
  liveWalletPartner,
  setRoute,
  startLiveUpstream,
  transactionsOf,
} from '../../support/live-provider';
import { TEST_ADMIN_TOKEN, TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

const COOL_DOWN_MS = 30_000;

describe('the circuit breaker of a live provider (simulator over HTTP, postgres store)', () => {
  let upstream: LiveUpstream;
  let service: TestService;

  beforeAll(async () => {
    upstream = await startLiveUpstream();
    service = await TestService.start({ store: 'postgres', env: { ...upstream.env, PROVIDER_TIMEOUT_MS: '1000' } });
    await setRoute(service, { kind: 'operator', id: 101, upstream_id: '1201' });
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await service?.close();
    await upstream?.close();
  });

  const breaker = async () => (await service.admin('GET', '/providers/breakers')).body.providers[0];

  it('opens after five unknown outcomes in a row, refuses new orders before any debit, keeps placed orders for retry, and closes once a probe is answered', async () => {
    const { liveKey } = await liveWalletPartner(service);
    const view = async (orderId: string) => (await service.partner('GET', `/transactions/${orderId}`, liveKey)).body;
    expect(await breaker()).toEqual({
      provider: 'reloadly',
      state: 'closed',
      unknown_in_a_row: 0,
      next_probe_at: null,
    });

    // Suffix 0007: the simulator records the topup but never answers; the outcome is unknown and each order is in doubt.
    const placed: string[] = [];
    for (let i = 0; i < 5; i++) {
      const answer = await service.topup(
        liveKey,
        { operator_id: 101, phone: `+9198765${i}0007`, amount: 100 },
        `breaker-${i}`,
      );
      expect(answer.status).toBe(200);
      placed.push(answer.body.order_id);
    }
    await service.settle();
    const opened = await breaker();
    expect(opened).toMatchObject({
      state: 'open',
      unknown_in_a_row: 5,
      next_probe_at: new Date(service.clock.now().getTime() + COOL_DOWN_MS).toISOString(),
    });
    for (const orderId of placed) expect((await view(orderId)).status).toBe('PENDING');
    expect((await service.request('GET', '/metrics', { token: TEST_ADMIN_TOKEN })).text).toContain(
      'partner_service_provider_breaker_open{provider="reloadly"} 1',
    );

    const refused = await service.topup(
      liveKey,
      { operator_id: 101, phone: '+919876540001', amount: 100 },
      'breaker-refused',
    );
    expectRefusal(refused, 503, 'provider_unavailable');
    // The partner learns that it may retry, not which provider or breaker refused (the log names them).
    expect(refused.body.detail).toBe('operator 101 cannot be served at the moment; no money was moved; retry later');
    expect((await service.partner('GET', '/balance', liveKey)).body.available).toBe('4500.00');

    // Retries due before the cool-down ends are not sent: the simulator sees one attempt per order.
    const attemptsBefore = upstream.simulator.state.submissions.length;
    await service.advance(10_000);
    expect(upstream.simulator.state.submissions.length).toBe(attemptsBefore);
    expect((await breaker()).state).toBe('open');

    // After the cool-down one retry goes as the probe (a look-up: an order in doubt is never sent again); the simulator
    // answers it, the breaker closes, and the rest follow.
    await service.advance(COOL_DOWN_MS);
    await service.advance(COOL_DOWN_MS);
    expect(await breaker()).toEqual({
      provider: 'reloadly',
      state: 'closed',
      unknown_in_a_row: 0,
      next_probe_at: null,
    });
    expect((await service.request('GET', '/metrics', { token: TEST_ADMIN_TOKEN })).text).toContain(
      'partner_service_provider_breaker_open{provider="reloadly"} 0',
    );
    for (const orderId of placed) {
      expect(await view(orderId)).toMatchObject({ status: 'SUCCESS', refunded_at: null });
      expect(transactionsOf(upstream, orderId)).toHaveLength(1);
      expect(upstream.simulator.state.submissions.filter((sent) => sent.reference === orderId)).toHaveLength(1);
      expect(await orderEvents(service, orderId, 'WalletRefunded')).toHaveLength(0);
    }
    const accepted = await service.topup(
      liveKey,
      { operator_id: 101, phone: '+919876540001', amount: 100 },
      'breaker-after',
    );
    expect(accepted.status).toBe(200);
  });
});
