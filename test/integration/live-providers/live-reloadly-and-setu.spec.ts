import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { ManualClock } from '../../support/manual-clock';
import { SETU_POLL_AFTER_MS } from '../../../src/infrastructure/providers/setu/setu-provider';
import {
  LiveUpstream,
  liveWalletPartner,
  setRoute,
  startLiveUpstream,
  transactionsOf,
} from '../../support/live-provider';
import { TestDatabase, createTestDatabase } from '../../support/postgres-test-database';
import { runCli } from '../../support/run-cli';
import {
  SetuUpstream,
  bescom,
  billInfo,
  payBill,
  setuPaymentsOf,
  startSetuUpstream,
} from '../../support/setu-upstream';
import { TEST_ADMIN_TOKEN, TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

const DAY_MS = 86_400_000;
const TEST_TIMEOUT_MS = 4 * SERVICE_START_TIMEOUT_MS;

/**
 * LIVE_PROVIDERS=reloadly,setu with both simulators running: routes set from Setu's catalog by
 * `provider sync setu` and by hand with `route set`, a topup through Reloadly and a bill through
 * Setu across a service restart, `provider status` for both, and `provider reconcile` over
 * Setu's transactions list, all through the operator CLI.
 */
describe('two live providers at once: Reloadly for topups, Setu for BBPS bills (postgres store)', () => {
  let reloadly: LiveUpstream;
  let setu: SetuUpstream;
  let database: TestDatabase;
  let service: TestService | null = null;
  const clock = new ManualClock(new Date());
  const cli = (...args: string[]) =>
    runCli(args, {
      SERVICE_URL: service!.url,
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      DATA_DIR: join(tmpdir(), 'no-data-here'),
    });
  const json = (run: { code: number | null; stdout: string; stderr: string }) => {
    if (run.code !== 0) throw new Error(`cli exited ${run.code}: ${run.stderr}`);
    return JSON.parse(run.stdout);
  };

  const start = () => {
    const { LIVE_PROVIDER: _one, ...reloadlyEnv } = reloadly.env;
    return TestService.start({
      store: 'postgres',
      databaseUrl: database.connectionString,
      clock,
      env: { ...reloadlyEnv, ...setu.setuEnv, LIVE_PROVIDERS: 'reloadly,setu', PROVIDER_TIMEOUT_MS: '1000' },
    });
  };

  const restart = async () => {
    await service?.close();
    service = null;
    service = await start();
  };

  beforeAll(async () => {
    reloadly = await startLiveUpstream();
    setu = await startSetuUpstream();
    database = await createTestDatabase('live-two-providers');
    service = await start();
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await service?.close();
    await database?.drop();
    await setu?.close();
    await reloadly?.close();
  });

  it(
    'provider sync setu proposes routes for our BBPS billers by name and --apply records them; route set routes one by hand',
    async () => {
      const dryRun = json(await cli('provider', 'sync', 'setu'));
      expect(dryRun.applied).toBe(false);
      const proposed = Object.fromEntries(
        dryRun.proposed.map((route: { kind: string; id: number; upstream_id: string; match: string }) => [
          `${route.kind}:${route.id}`,
          `${route.upstream_id} ${route.match}`,
        ]),
      );
      expect(proposed).toMatchObject({
        'biller:1001': 'AIRT00000NAT87 exact',
        'biller:1005': 'BESCOM000KAR01 exact',
        'biller:1006': 'MAHA00000MAH01 partial',
        'biller:1007': 'TATAPWR00MUM01 exact',
        'biller:1008': 'BSESRAJ00DEL01 exact',
        'biller:1017': 'DJB000000DEL01 exact',
        'biller:1021': 'IGL000000DEL01 partial',
      });
      expect(dryRun.ambiguous).toContainEqual(
        expect.objectContaining({
          kind: 'biller',
          id: 1012,
          candidates: [
            { upstream_id: 'TORR00000AHM01', upstream_name: 'Torrent Power - Ahmedabad' },
            { upstream_id: 'TORR00000SUR01', upstream_name: 'Torrent Power - Surat' },
          ],
        }),
      );
      // Setu serves Indian BBPS billers only: no operator, and no biller of another corridor, is proposed or listed.
      const listed = [...dryRun.proposed, ...dryRun.ambiguous, ...dryRun.unmatched] as { kind: string; id: number }[];
      expect(listed.every((product) => product.kind === 'biller' && product.id >= 1001 && product.id < 2000)).toBe(
        true,
      );
      expect(dryRun.unmatched).toContainEqual({ kind: 'biller', id: 1002, name: 'Jio Postpaid', country: 'IN' });
      // Setu's Adani Electricity Mumbai charges a convenience fee: not proposed, and said why (decision 0122).
      expect(dryRun.not_offered).toEqual([
        expect.objectContaining({
          kind: 'biller',
          id: 1011,
          upstream_id: 'ADAN00000MUM01',
          reason: expect.any(String),
        }),
      ]);

      const applied = json(await cli('provider', 'sync', 'setu', '--apply'));
      expect(applied.applied).toBe(true);
      expect(applied.changed).toHaveLength(dryRun.proposed.length);
      await restart();
      // The routes are events: after the restart the sync has nothing left to propose.
      expect(json(await cli('provider', 'sync', 'setu')).proposed).toEqual([]);
      const set = json(
        await cli('route', 'set', 'biller', '1012', '--provider', 'setu', '--upstream-id', 'TORR00000AHM01'),
      );
      expect(set).toMatchObject({ changed: [expect.objectContaining({ kind: 'biller', id: 1012 })] });
      const routes = json(await cli('route', 'list'));
      const route = (id: number) =>
        routes.routes.find(
          (entry: { kind: string; id: number }) => entry.kind === 'biller' && entry.id === id,
        ) as Record<string, unknown>;
      expect(route(1012)).toMatchObject({ provider: 'setu', upstream_id: 'TORR00000AHM01', provider_configured: true });
      expect(route(1005)).toMatchObject({ provider: 'setu', upstream_id: 'BESCOM000KAR01' });
      expect((await setRoute(service!, { kind: 'operator', id: 101, upstream_id: '1201' })).status).toBe(200);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a topup goes to Reloadly and a bill to Setu, each settling once across a restart; provider status shows both',
    async () => {
      const { liveKey } = await liveWalletPartner(service!);
      const topup = await service!.topup(
        liveKey,
        { operator_id: 101, phone: '+919876540001', amount: 100 },
        'two-topup',
      );
      expect(topup.status).toBe(200);
      expect((await billInfo(service!, liveKey, bescom('0001'))).body.amount).toBe('500.00');
      const bill = await payBill(service!, liveKey, bescom('0001'), 500, 'two-bill');
      expect(bill.status).toBe(200);
      await service!.settle();
      await restart();
      await service!.advance(SETU_POLL_AFTER_MS);
      const view = async (orderId: string) => (await service!.partner('GET', `/transactions/${orderId}`, liveKey)).body;
      expect(await view(topup.body.order_id)).toMatchObject({ status: 'SUCCESS' });
      expect(await view(bill.body.order_id)).toMatchObject({
        status: 'SUCCESS',
        operator_ref: setuPaymentsOf(setu, bill.body.order_id)[0].transactionId,
      });
      expect(transactionsOf(reloadly, topup.body.order_id)).toHaveLength(1);
      expect(setuPaymentsOf(setu, bill.body.order_id)).toHaveLength(1);
      expect(transactionsOf(reloadly, bill.body.order_id)).toHaveLength(0);

      const status = json(await cli('provider', 'status'));
      expect(status).toMatchObject({
        live_provider: 'reloadly',
        float: expect.objectContaining({ currency: 'USD' }),
        providers: [
          expect.objectContaining({ provider: 'reloadly', balance_endpoint: true, error: null }),
          { provider: 'setu', balance_endpoint: false, float: null, error: null },
        ],
      });
      const metrics = await service!.request('GET', '/metrics', { token: TEST_ADMIN_TOKEN });
      expect(metrics.text).toContain('partner_service_provider_float_readable{provider="reloadly"} 1');
      expect(metrics.text).not.toContain('partner_service_provider_float_readable{provider="setu"}');
      expect(metrics.text).toContain('partner_service_provider_breaker_open{provider="setu"} 0');
      expect((await service!.verify()).body).toMatchObject({ ok: true, breaches: [] });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'provider reconcile reads Setu’s transactions list: matched while the day runs, a mismatch recorded once the day is over',
    async () => {
      const day = clock.now().toISOString().slice(0, 10);
      expect((await cli('provider', 'reconcile', '--date', day)).stderr).toContain('one of reloadly, setu');
      const today = json(await cli('provider', 'reconcile', '--date', day, '--provider', 'setu'));
      expect(today).toMatchObject({ provider: 'setu', complete: false, recorded: 0 });
      expect(today.counts).toMatchObject({ matched: 1, amount_mismatch: 0, provider_only: 0, ours_only: 0 });

      // Setu's books say another amount for our payment.
      setu.simulator.state.payments[0].amountPaise = 49_900;
      clock.advance(DAY_MS);
      await restart();
      const over = json(await cli('provider', 'reconcile', '--date', day, '--provider', 'setu'));
      expect(over).toMatchObject({ complete: true, recorded: 1 });
      expect(over.counts).toMatchObject({ matched: 0, amount_mismatch: 1 });
      const again = json(await cli('provider', 'reconcile', '--date', day, '--provider', 'setu'));
      expect(again.recorded).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );
});
