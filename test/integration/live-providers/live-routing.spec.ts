import { expectRefusal } from '../../support/error-assertions';
import { orderEvents } from '../../support/ledger';
import {
  LiveUpstream,
  liveWalletPartner,
  setRoute,
  startLiveUpstream,
  transactionsOf,
} from '../../support/live-provider';
import { TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

const POLL_AFTER_MS = 30_000;
const phone = (suffix: string) => `+91987654${suffix}`;

describe('live routes: which provider and upstream id serve each operator and biller (simulator over HTTP, postgres store)', () => {
  let upstream: LiveUpstream;
  let service: TestService;
  let liveKey: string;
  let partnerId: string;

  beforeAll(async () => {
    upstream = await startLiveUpstream();
    service = await TestService.start({ store: 'postgres', env: { ...upstream.env, PROVIDER_TIMEOUT_MS: '1000' } });
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await service?.close();
    await upstream?.close();
  });
  beforeEach(async () => {
    ({ partnerId, liveKey } = await liveWalletPartner(service));
  });

  const topup = (operatorId: number, suffix: string) =>
    service.topup(
      liveKey,
      { operator_id: operatorId, phone: phone(suffix), amount: 199 },
      `route-${operatorId}-${suffix}-${Math.random().toString(36).slice(2)}`,
    );
  const balance = async () => (await service.partner('GET', '/balance', liveKey)).body.available;
  const debits = async () =>
    (
      await service.admin(
        'GET',
        `/audit/statements/${partnerId}/live?date=${service.clock.now().toISOString().slice(0, 10)}`,
      )
    ).body.counts.debits;

  it('a live order for an operator without a route answers 503 provider_unavailable and moves no money', async () => {
    const answer = await topup(104, '0001');
    expectRefusal(answer, 503, 'provider_unavailable');
    expect(answer.body.detail).toBe('operator 104 has no live route to a provider yet; no money was moved');
    expect(await balance()).toBe('5000.00');
    expect(await debits()).toBe(0);
  });

  it('a route set by an operator is recorded with who set it and when, and shown by the route list and history', async () => {
    const set = await setRoute(service, { kind: 'operator', id: 101, upstream_id: '1201' }, 'ops-alice');
    expect(set.status).toBe(200);
    expect(set.body.changed).toEqual([
      { kind: 'operator', id: 101, provider: 'reloadly', upstream_id: '1201', previous: null },
    ]);

    const again = await setRoute(service, { kind: 'operator', id: 101, upstream_id: '1201' }, 'ops-bob');
    expect(again.body.changed).toEqual([]);

    const list = await service.admin('GET', '/routes');
    expect(
      list.body.routes.find((route: { kind: string; id: number }) => route.kind === 'operator' && route.id === 101),
    ).toEqual({
      kind: 'operator',
      id: 101,
      name: 'Airtel',
      corridor: 'IN',
      provider: 'reloadly',
      upstream_id: '1201',
      provider_configured: true,
      changed_at: service.clock.now().toISOString(),
      changed_by: { type: 'operator', id: 'ops-alice' },
    });
    const history = await service.admin('GET', '/routes/history');
    expect(
      history.body.events.filter((event: { data: { productId: number } }) => event.data.productId === 101),
    ).toEqual([
      expect.objectContaining({
        event_type: 'RouteSet',
        actor: { type: 'operator', id: 'ops-alice' },
        data: expect.objectContaining({ provider: 'reloadly', upstreamId: '1201', source: 'manual', previous: null }),
      }),
    ]);
  });

  it("a routed order goes to the route's upstream operator and keeps that route when the route changes before it settles", async () => {
    await setRoute(service, { kind: 'operator', id: 101, upstream_id: '1201' });
    upstream.simulator.state.transactions.length = 0;
    const placed = await topup(101, '0003'); // processing first, then successful
    expect(placed.status).toBe(200);
    const orderId: string = placed.body.order_id;
    const [debit] = await orderEvents(service, orderId, 'WalletDebited');
    expect(debit.data.route).toEqual({ provider: 'reloadly', upstreamId: '1201' });
    await service.settle();
    expect((await service.partner('GET', `/transactions/${orderId}`, liveKey)).body.status).toBe('PENDING');

    await setRoute(service, { kind: 'operator', id: 101, upstream_id: '1202' });
    await service.advance(POLL_AFTER_MS);

    const [transaction] = transactionsOf(upstream, orderId);
    expect(transaction).toMatchObject({ productId: 1201, status: 'SUCCESSFUL' });
    expect(transactionsOf(upstream, orderId)).toHaveLength(1);
    expect((await service.partner('GET', `/transactions/${orderId}`, liveKey)).body).toMatchObject({
      status: 'SUCCESS',
      operator_ref: transaction.operatorTransactionId,
    });

    // The next order takes the new route.
    const next = await topup(101, '0001');
    await service.settle();
    expect(transactionsOf(upstream, next.body.order_id)).toEqual([
      expect.objectContaining({ productId: 1202, status: 'SUCCESSFUL' }),
    ]);
  });

  it('a product routed to a provider this service does not run answers 503 before any debit', async () => {
    await setRoute(service, { kind: 'operator', id: 102, provider: 'dtone', upstream_id: 'IN-JIO' });
    const answer = await topup(102, '0001');
    expectRefusal(answer, 503, 'provider_unavailable');
    expect(answer.body.detail).toBe('operator 102 cannot be served at the moment; no money was moved; retry later');
    expect(
      (await service.admin('GET', '/routes')).body.routes.find((route: { id: number }) => route.id === 102),
    ).toMatchObject({ provider: 'dtone', provider_configured: false });
    expect(await balance()).toBe('5000.00');
  });

  it('removing a route takes the product off live: new orders answer 503', async () => {
    await setRoute(service, { kind: 'operator', id: 201, upstream_id: '1401' });
    const removed = await service.admin('POST', '/routes/remove', {
      kind: 'operator',
      id: 201,
      reason: 'operator suspended upstream',
    });
    expect(removed.status).toBe(200);
    const bd = await liveWalletPartner(service, 'BD');
    const answer = await service.topup(
      bd.liveKey,
      { operator_id: 201, phone: '+8801712340001', amount: 100 },
      'bd-removed-0001',
    );
    expectRefusal(answer, 503, 'provider_unavailable');
    expectRefusal(
      await service.admin('POST', '/routes/remove', { kind: 'operator', id: 201, reason: 'again' }),
      404,
      'not_found',
    );
  });

  it('live bill-info needs a route too, and a routed provider that cannot fetch bills answers 409 invalid_state, never an invented bill', async () => {
    expectRefusal(
      await service.partner('POST', '/bill-info', liveKey, { biller_id: 1007, consumer_number: '123456789012' }),
      503,
      'provider_unavailable',
    );
    await setRoute(service, { kind: 'biller', id: 1005, upstream_id: '301' });
    const answer = await service.partner('POST', '/bill-info', liveKey, {
      biller_id: 1005,
      consumer_number: '1234567890',
    });
    expectRefusal(answer, 409, 'invalid_state');
    // The provider refusing to fetch bills says nothing about whether it answers: its breaker stays closed.
    for (let i = 0; i < 6; i++)
      await service.partner('POST', '/bill-info', liveKey, { biller_id: 1005, consumer_number: '1234567890' });
    expect((await service.admin('GET', '/providers/breakers')).body.providers).toEqual([
      { provider: 'reloadly', state: 'closed', unknown_in_a_row: 0, next_probe_at: null },
    ]);
  });

  it('a route set through one process applies to the next order taken by another (or by a restarted one)', async () => {
    const other = await TestService.start({
      store: 'postgres',
      databaseUrl: service.databaseUrl!,
      env: { ...upstream.env, PROVIDER_TIMEOUT_MS: '1000' },
    });
    try {
      expectRefusal(
        await other.topup(liveKey, { operator_id: 104, phone: phone('0001'), amount: 199 }, 'other-process-unrouted'),
        503,
        'provider_unavailable',
      );
      await setRoute(service, { kind: 'operator', id: 104, upstream_id: '1204' });
      const placed = await other.topup(
        liveKey,
        { operator_id: 104, phone: phone('0001'), amount: 199 },
        'other-process-routed',
      );
      expect(placed.status).toBe(200);
      await other.settle();
      expect(transactionsOf(upstream, placed.body.order_id)).toEqual([
        expect.objectContaining({ productId: 1204, status: 'SUCCESSFUL' }),
      ]);
    } finally {
      await other.close();
    }
  }, 60_000);

  it('refuses routes for products not in the catalog and malformed provider or upstream ids', async () => {
    expectRefusal(await setRoute(service, { kind: 'operator', id: 999, upstream_id: '1' }), 404, 'not_found');
    expectRefusal(
      await setRoute(service, { kind: 'operator', id: 101, provider: 'Reloadly!', upstream_id: '1' }),
      400,
      'validation_failed',
      'provider',
    );
    expectRefusal(
      await setRoute(service, { kind: 'operator', id: 101, upstream_id: '../1' }),
      400,
      'validation_failed',
      'upstream_id',
    );
    expectRefusal(
      await service.admin('POST', '/routes', { kind: 'shop', id: 101, provider: 'reloadly', upstream_id: '1' }),
      400,
      'validation_failed',
      'kind',
    );
    expectRefusal(
      await service.admin('POST', '/routes', {
        kind: 'operator',
        id: 101,
        provider: 'reloadly',
        upstream_id: '1',
        note: 'x',
      }),
      400,
      'validation_failed',
      'note',
    );
  });

  it('provider sync proposes routes from the provider catalog by country and name, and records them only with apply', async () => {
    const dryRun = await service.admin('POST', '/providers/reloadly/sync', {});
    expect(dryRun.status).toBe(200);
    expect(dryRun.body.applied).toBe(false);
    expect(dryRun.body.changed).toEqual([]);
    const proposed = Object.fromEntries(
      dryRun.body.proposed.map((route: { kind: string; id: number; upstream_id: string }) => [
        `${route.kind}:${route.id}`,
        route.upstream_id,
      ]),
    );
    expect(proposed).toMatchObject({
      'operator:103': '1203',
      'operator:202': '1402',
      'operator:302': '1602',
      'biller:2002': '401',
      'biller:3001': '501',
    });
    expect(dryRun.body.unmatched).toContainEqual({ kind: 'operator', id: 105, name: 'MTNL', country: 'IN' });
    expect(dryRun.body.unchanged).toBe(2); // operator 104 and biller 1005, routed above to what the catalog gives
    // Operator 101 was moved to 1202 above; the catalog says Airtel India is 1201.
    expect(dryRun.body.proposed).toContainEqual(
      expect.objectContaining({
        kind: 'operator',
        id: 101,
        upstream_id: '1201',
        match: 'exact',
        current: { provider: 'reloadly', upstreamId: '1202' },
      }),
    );
    expect(dryRun.body.routed_elsewhere).toContainEqual({ kind: 'operator', id: 102, name: 'Jio', provider: 'dtone' });
    const before = (await service.admin('GET', '/routes/history')).body.events.length;

    // The actor is the token's operator; a typed X-Operator-Id is ignored.
    const applied = await service.request('POST', '/v1/admin/providers/reloadly/sync', {
      token: await service.operatorToken('ops-carol', 'engineer'),
      headers: { 'x-operator-id': 'ops-mallory' },
      body: { apply: true },
    });
    expect(applied.body.applied).toBe(true);
    expect(applied.body.changed.length).toBe(dryRun.body.proposed.length);
    const history = (await service.admin('GET', '/routes/history')).body.events.slice(before);
    expect(history).toHaveLength(dryRun.body.proposed.length);
    for (const event of history)
      expect(event).toMatchObject({
        actor: { type: 'operator', id: 'ops-carol' },
        data: { source: 'sync', provider: 'reloadly' },
      });

    const repeat = await service.admin('POST', '/providers/reloadly/sync', { apply: true });
    expect(repeat.body.proposed).toEqual([]);
    expect(repeat.body.changed).toEqual([]);

    expectRefusal(await service.admin('POST', '/providers/dtone/sync', {}), 404, 'not_found');
  });
});
