import { ManualClock } from '../../support/manual-clock';
import { orderEvents } from '../../support/ledger';
import {
  LiveUpstream,
  liveWalletPartner,
  routeToSimulator,
  startLiveUpstream,
  submissionsOf,
  transactionsOf,
} from '../../support/live-provider';
import { TestDatabase, createTestDatabase } from '../../support/postgres-test-database';
import { TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

const PROVIDER_TIMEOUT_MS = 1_000;
const phone = (suffix: string) => `+91987654${suffix}`;

/**
 * The service stops in the middle of live orders and starts again on the same database (the
 * upstream keeps running): nothing is lost and no order is paid twice upstream.
 */
describe('a service restart in the middle of live orders (postgres store)', () => {
  let upstream: LiveUpstream;
  let database: TestDatabase;
  let service: TestService | null = null;
  const clock = new ManualClock(new Date());

  const start = async () => {
    const started = await TestService.start({
      store: 'postgres',
      databaseUrl: database.connectionString,
      clock,
      env: { ...upstream.env, PROVIDER_TIMEOUT_MS: String(PROVIDER_TIMEOUT_MS) },
    });
    await routeToSimulator(started);
    return started;
  };

  beforeAll(async () => {
    upstream = await startLiveUpstream();
    database = await createTestDatabase('live-restart');
  });
  afterAll(async () => {
    await service?.close();
    await database?.drop();
    await upstream?.close();
  });

  it(
    'orders not yet sent, sent without an answer, and still processing each settle once after the restart',
    async () => {
      service = await start();
      const { liveKey } = await liveWalletPartner(service);
      const place = async (suffix: string) =>
        (await service!.topup(liveKey, { operator_id: 101, phone: phone(suffix), amount: 100 }, `restart-${suffix}`))
          .body.order_id as string;

      const unanswered = await place('0007'); // accepted upstream, the answer never comes
      const processing = await place('0003'); // accepted upstream, PROCESSING
      await service.settle();
      expect(submissionsOf(upstream, unanswered)).toHaveLength(1);
      expect(submissionsOf(upstream, processing)).toHaveLength(1);
      const notSent = await place('0001'); // debited; the service stops before its submission runs
      await service.close();
      service = null;

      service = await start();
      const view = async (orderId: string) => (await service!.partner('GET', `/transactions/${orderId}`, liveKey)).body;
      expect((await view(notSent)).status).toBe('PENDING');
      await service.settle();
      await service.advance(30_000);

      for (const orderId of [unanswered, processing, notSent]) {
        expect((await view(orderId)).status).toBe('SUCCESS');
        expect(transactionsOf(upstream, orderId)).toHaveLength(1);
        expect(await orderEvents(service, orderId, 'WalletRefunded')).toHaveLength(0);
        expect(await orderEvents(service, orderId, 'TransactionSettled')).toHaveLength(1);
      }
      expect(submissionsOf(upstream, notSent)).toHaveLength(1);
      expect(submissionsOf(upstream, processing)).toHaveLength(1);
      expect(submissionsOf(upstream, unanswered)).toHaveLength(1);
      expect((await service.partner('GET', '/balance', liveKey)).body.available).toBe('4700.00');
      expect((await service.verify()).body).toMatchObject({ ok: true, breaches: [] });
    },
    SERVICE_START_TIMEOUT_MS,
  );
});
