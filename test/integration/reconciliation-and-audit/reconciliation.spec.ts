import { micros } from '../../../tools/provider-sim/sim-money';
import { expectRefusal } from '../../support/error-assertions';
import {
  LiveUpstream,
  liveWalletPartner,
  setRoute,
  startLiveUpstream,
  transactionsOf,
} from '../../support/live-provider';
import { TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

const DAY_MS = 86_400_000;

describe('daily reconciliation with the provider report (simulator over HTTP, postgres store)', () => {
  let upstream: LiveUpstream;
  let service: TestService;
  let day: string;
  const orders: Record<'matched' | 'amount' | 'oursOnly' | 'status', string> = {
    matched: '',
    amount: '',
    oursOnly: '',
    status: '',
  };

  beforeAll(async () => {
    upstream = await startLiveUpstream();
    service = await TestService.start({ store: 'postgres', env: upstream.env });
    await setRoute(service, { kind: 'operator', id: 101, upstream_id: '1201' });
    const { liveKey } = await liveWalletPartner(service);
    const place = async (suffix: string, key: string) =>
      (await service.topup(liveKey, { operator_id: 101, phone: `+91987654${suffix}`, amount: 199 }, key)).body
        .order_id as string;
    orders.matched = await place('0001', 'rec-matched');
    orders.amount = await place('0001', 'rec-amount');
    orders.oursOnly = await place('0001', 'rec-ours-only');
    orders.status = await place('0002', 'rec-status'); // refused upstream: FAILED and refunded here
    await service.settle();
    day = service.clock.now().toISOString().slice(0, 10);

    // What the provider's books say differently from ours.
    const transactions = upstream.simulator.state.transactions;
    transactionsOf(upstream, orders.amount)[0].delivered = { amount: micros('150'), currency: 'INR' };
    transactions.splice(transactions.indexOf(transactionsOf(upstream, orders.oursOnly)[0]), 1);
    const model = transactionsOf(upstream, orders.matched)[0];
    transactions.push(
      { ...model, id: 990_001, reference: orders.status },
      { ...model, id: 990_002, reference: 'ord_not_ours_1' },
    );
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await service?.close();
    await upstream?.close();
  });

  /** The read (GET): the latest stored run of the day; the provider is not asked. */
  const reconcile = (query: string) => service.admin('GET', `/providers/reconciliation?${query}`);
  /** The run (POST): the report, and what it finds recorded. */
  const run = (body: Record<string, unknown>, query = '') =>
    service.admin('POST', `/providers/reconciliation${query}`, body);
  const eventTypesOf = async (orderId: string): Promise<string[]> =>
    (await service.admin('GET', `/audit/orders/${orderId}`)).body.events.map(
      (event: { event_type: string }) => event.event_type,
    );

  it('while the day is not over it reports what it finds, marked incomplete, and records nothing', async () => {
    const report = await run({ date: day });
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({ provider: 'reloadly', date: day, complete: false, recorded: 0 });
    expect(await eventTypesOf(orders.amount)).not.toContain('ReconciliationMismatchFound');
    expect((await reconcile(`date=${day}`)).body).toMatchObject({
      provider: 'reloadly',
      date: day,
      trigger: 'operator',
      complete: false,
      counts: report.body.counts,
    });
  });

  it('reads the stored run of a day that is over without asking the provider or recording anything: the GET is a read', async () => {
    service.clock.advance(DAY_MS);
    const read = await reconcile(`date=${day}&provider=reloadly`);
    expect(read.status).toBe(200);
    // What was stored while the day was not over: the read judges nothing again.
    expect(read.body).toMatchObject({
      complete: false,
      counts: { matched: 1, amount_mismatch: 1, provider_only: 1, ours_only: 1, status_mismatch: 1 },
      recorded: 0,
    });
    expect(await eventTypesOf(orders.amount)).not.toContain('ReconciliationMismatchFound');
    expect((await service.admin('GET', '/audit/orders/ord_not_ours_1')).status).toBe(404);
    // The operator's run of today above is the only run listed.
    expect((await service.admin('GET', '/providers/reconciliation/runs')).body.runs).toHaveLength(1);
  });

  it('finds each kind of difference once the day is over, and records each mismatch on its order', async () => {
    const report = await run({ date: day, provider: 'reloadly' });
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({
      provider: 'reloadly',
      date: day,
      complete: true,
      counts: { matched: 1, amount_mismatch: 1, provider_only: 1, ours_only: 1, status_mismatch: 1 },
      recorded: 4,
    });
    const byOrder = Object.fromEntries(
      report.body.findings.map((finding: { order_id: string; kind: string }) => [finding.order_id, finding]),
    );
    expect(byOrder[orders.matched]).toMatchObject({ kind: 'matched' });
    expect(byOrder[orders.amount]).toMatchObject({
      kind: 'amount_mismatch',
      detail: 'the provider took 150 INR, the order is for 199.00 INR',
      ours: { status: 'SUCCESS', amount: '199.00' },
      upstream: { status: 'succeeded', amount: '150', currency: 'INR' },
    });
    expect(byOrder[orders.oursOnly]).toMatchObject({ kind: 'ours_only', upstream: null });
    expect(byOrder[orders.status]).toMatchObject({
      kind: 'status_mismatch',
      detail: 'the provider says succeeded, the order is FAILED here',
    });
    expect(byOrder.ord_not_ours_1).toMatchObject({ kind: 'provider_only', partner_id: null, ours: null });

    const audit = (await service.admin('GET', `/audit/orders/${orders.amount}`)).body;
    expect(audit.outcome).toBe('SUCCESS');
    expect(audit.events.at(-1)).toMatchObject({
      event_type: 'ReconciliationMismatchFound',
      stream_id: `reconciliation-reloadly-${day}`,
      actor: { type: 'operator', id: 'break-glass' },
      data: { provider: 'reloadly', date: day, kind: 'amount_mismatch', orderId: orders.amount },
    });
    const unknown = (await service.admin('GET', '/audit/orders/ord_not_ours_1')).body;
    expect(unknown).toMatchObject({
      order_id: 'ord_not_ours_1',
      outcome: null,
      events: [
        expect.objectContaining({
          event_type: 'ReconciliationMismatchFound',
          data: expect.objectContaining({ kind: 'provider_only' }),
        }),
      ],
    });
    expect(
      (await service.admin('GET', `/audit/orders/${orders.matched}`)).body.events.map(
        (event: { event_type: string }) => event.event_type,
      ),
    ).not.toContain('ReconciliationMismatchFound');
  });

  it('running the day again records nothing new', async () => {
    const again = await run({ date: day });
    expect(again.body).toMatchObject({
      complete: true,
      recorded: 0,
      counts: { amount_mismatch: 1, provider_only: 1, ours_only: 1, status_mismatch: 1 },
    });
    const audit = (await service.admin('GET', `/audit/orders/${orders.status}`)).body;
    expect(
      audit.events.filter((event: { event_type: string }) => event.event_type === 'ReconciliationMismatchFound'),
    ).toHaveLength(1);
    // Findings are evidence for finance: they move no money, and the ledger still verifies.
    expect((await service.verify()).status).toBe(200);
  });

  it('lists each run, newest first, with the operator, its counts, its mismatches and what it recorded', async () => {
    const runs = (await service.admin('GET', '/providers/reconciliation/runs?provider=reloadly&limit=2')).body.runs;
    expect(runs).toHaveLength(2);
    expect(runs[0]).toMatchObject({
      provider: 'reloadly',
      date: day,
      trigger: 'operator',
      actor: 'break-glass',
      job_id: null,
      outcome: 'succeeded',
      error: null,
      complete: true,
      counts: { matched: 1, amount_mismatch: 1, provider_only: 1, ours_only: 1, status_mismatch: 1 },
      recorded: 0,
      open_orders: 0,
    });
    expect(runs[1]).toMatchObject({ trigger: 'operator', complete: true, recorded: 4 });
    expect(runs[1].mismatches).toEqual(
      expect.arrayContaining([
        { kind: 'amount_mismatch', order_id: orders.amount, detail: expect.any(String), recorded: true },
        { kind: 'provider_only', order_id: 'ord_not_ours_1', detail: expect.any(String), recorded: true },
      ]),
    );
    expect(runs[0].mismatches.every((mismatch: { recorded: boolean }) => !mismatch.recorded)).toBe(true);
    expectRefusal(
      await service.admin('GET', '/providers/reconciliation/runs?limit=0'),
      400,
      'validation_failed',
      'limit',
    );
    expectRefusal(
      await service.admin('GET', '/providers/reconciliation/runs?date=x'),
      400,
      'validation_failed',
      'date',
    );
  });

  it('lets finance and engineers run a day, not the support role (a run records findings)', async () => {
    const finance = await service.operatorToken('fin.reconciler', 'finance');
    const support = await service.operatorToken('ops.support', 'operator');
    expect((await service.adminAs(finance, 'POST', '/providers/reconciliation', { date: day })).body).toMatchObject({
      recorded: 0,
    });
    expectRefusal(
      await service.adminAs(support, 'POST', '/providers/reconciliation', { date: day }),
      403,
      'role_forbidden',
    );
    expect((await service.adminAs(support, 'GET', `/providers/reconciliation?date=${day}`)).status).toBe(200);
    const latest = (await service.admin('GET', '/providers/reconciliation/runs?limit=1')).body.runs[0];
    expect(latest).toMatchObject({ trigger: 'operator', actor: 'fin.reconciler' });
  });

  it('gives finance a self-contained page with the counts and every mismatch, from a run', async () => {
    const page = await run({ date: day }, '?format=html');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.text).toContain(`Reconciliation with reloadly, ${day} (UTC)`);
    expect(page.text).toContain('4 mismatch(es)');
    for (const orderId of [orders.amount, orders.oursOnly, orders.status, 'ord_not_ours_1'])
      expect(page.text).toContain(orderId);
    expect(page.text).not.toContain(orders.matched);
  });

  it('refuses a day that has not begun, a malformed date, an unknown parameter and a provider it does not run', async () => {
    const tomorrow = new Date(service.clock.now().getTime() + DAY_MS).toISOString().slice(0, 10);
    expectRefusal(await reconcile(`date=${tomorrow}`), 400, 'validation_failed', 'date');
    expectRefusal(await reconcile('date=2026-02-30'), 400, 'validation_failed', 'date');
    expectRefusal(await reconcile(''), 400, 'validation_failed', 'date');
    expectRefusal(await reconcile(`date=${day}&since=1`), 400, 'validation_failed', 'since');
    expectRefusal(await reconcile(`date=${day}&format=pdf`), 400, 'validation_failed', 'format');
    expectRefusal(await reconcile(`date=${day}&provider=dtone`), 404, 'not_found');
    const dayBefore = new Date(Date.parse(`${day}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
    expectRefusal(await reconcile(`date=${dayBefore}`), 404, 'not_found');
    const runsBefore = (await service.admin('GET', '/providers/reconciliation/runs')).body.runs.length;
    expectRefusal(await run({ date: tomorrow }), 400, 'validation_failed', 'date');
    expectRefusal(await run({ date: '24-11-2026' }), 400, 'validation_failed', 'date');
    expectRefusal(await run({}), 400, 'validation_failed', 'date');
    expectRefusal(await run({ date: day, since: 1 }), 400, 'validation_failed', 'since');
    expectRefusal(await run({ date: day }, '?format=pdf'), 400, 'validation_failed', 'format');
    expectRefusal(await run({ date: day, provider: 'dtone' }), 404, 'not_found');
    // A refused request is no run.
    expect((await service.admin('GET', '/providers/reconciliation/runs')).body.runs).toHaveLength(runsBefore);
  });

  it('records a run that could not read the report as failed, with the reason, and answers 503', async () => {
    upstream.simulator.state.faults.reportsUnavailableNext = 1;
    const failed = await run({ date: day });
    expectRefusal(failed, 503, 'provider_unavailable');
    expect(failed.body.detail).toContain('the transaction report of reloadly could not be read');
    const latest = (await service.admin('GET', '/providers/reconciliation/runs?limit=1')).body.runs[0];
    expect(latest).toMatchObject({ outcome: 'failed', recorded: 0, open_orders: null, mismatches: [] });
    expect(latest.error).toContain('reloadly: GET /topups/reports/transactions answered HTTP 404');
  });
});
