import { expectRefusal } from '../../support/error-assertions';
import { orderEvents } from '../../support/ledger';
import { runCli } from '../../support/run-cli';
import {
  LiveUpstream,
  liveWalletPartner,
  routeToSimulator,
  startLiveUpstream,
  submissionsOf,
  transactionsOf,
} from '../../support/live-provider';
import { TEST_ADMIN_TOKEN, TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

const PROVIDER_TIMEOUT_MS = 1_000;
const FIRST_RETRY_MS = 2_000;
const POLL_AFTER_MS = 30_000;
const STUCK_AFTER_MS = 900_000;
/** Reloadly's horizon for a topup: no absence is confirmed before it (docs/decisions/0120-reloadly-absence-after-the-horizon.md). */
const TOPUP_HORIZON_MS = 86_400_000;
const phone = (suffix: string) => `+91987654${suffix}`;

/** The operator CLI in its own process. */
const cli = (args: string[], serviceUrl: string) =>
  runCli(args, { SERVICE_URL: serviceUrl, ADMIN_TOKEN: TEST_ADMIN_TOKEN });

describe('live orders through a Reloadly-protocol provider (simulator over HTTP, postgres store)', () => {
  let upstream: LiveUpstream;
  let service: TestService;
  let liveKey: string;

  beforeAll(async () => {
    upstream = await startLiveUpstream();
    service = await TestService.start({
      store: 'postgres',
      env: { ...upstream.env, PROVIDER_TIMEOUT_MS: String(PROVIDER_TIMEOUT_MS) },
    });
    await routeToSimulator(service);
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await service?.close();
    await upstream?.close();
  });
  beforeEach(async () => {
    ({ liveKey } = await liveWalletPartner(service));
  });

  const place = async (suffix: string, amount = 199): Promise<string> => {
    const placed = await service.topup(
      liveKey,
      { operator_id: 101, phone: phone(suffix), amount },
      `live-${suffix}-${Math.random().toString(36).slice(2)}`,
    );
    expect(placed.status).toBe(200);
    expect(placed.body.status).toBe('PENDING');
    return placed.body.order_id;
  };
  const view = async (orderId: string) => (await service.partner('GET', `/transactions/${orderId}`, liveKey)).body;
  const balance = async () => (await service.partner('GET', '/balance', liveKey)).body.available;
  const refunds = async (orderId: string) => (await orderEvents(service, orderId, 'WalletRefunded')).length;

  it('a topup the provider performs goes PENDING -> SUCCESS with the operator’s transaction id, sent once under the order id', async () => {
    const tokensBefore = upstream.simulator.state.tokensIssued;
    const orderId = await place('0001');
    await service.settle();

    const [transaction] = transactionsOf(upstream, orderId);
    expect(await view(orderId)).toMatchObject({
      status: 'SUCCESS',
      operator_ref: transaction.operatorTransactionId,
      refunded_at: null,
    });
    expect(submissionsOf(upstream, orderId)).toHaveLength(1);
    expect(transaction).toMatchObject({
      status: 'SUCCESSFUL',
      target: '9876540001',
      productId: 1201,
      localCurrency: 'INR',
    });
    expect(await balance()).toBe('4801.00');

    // A second order reuses the token: one per audience, not one per call.
    await place('0001');
    await service.settle();
    expect(upstream.simulator.state.tokensIssued - tokensBefore).toBeLessThanOrEqual(1);
  });

  it('a definitive refusal fails the order and refunds it exactly once', async () => {
    const orderId = await place('0002');
    await service.settle();
    expect(await view(orderId)).toMatchObject({ status: 'FAILED' });
    expect(await refunds(orderId)).toBe(1);
    expect(await balance()).toBe('5000.00');
    expect(transactionsOf(upstream, orderId)).toHaveLength(0);
    await service.advance(POLL_AFTER_MS);
    expect(await refunds(orderId)).toBe(1);
  });

  it('an order the provider is still processing is looked up later and settles (success, then failure with one refund)', async () => {
    const succeeds = await place('0003');
    const fails = await place('0004');
    await service.settle();
    expect((await view(succeeds)).status).toBe('PENDING');
    expect((await view(fails)).status).toBe('PENDING');

    await service.advance(POLL_AFTER_MS);
    expect(await view(succeeds)).toMatchObject({
      status: 'SUCCESS',
      operator_ref: transactionsOf(upstream, succeeds)[0].operatorTransactionId,
    });
    expect((await view(fails)).status).toBe('FAILED');
    expect(await refunds(succeeds)).toBe(0);
    expect(await refunds(fails)).toBe(1);
    expect(submissionsOf(upstream, succeeds)).toHaveLength(1);
    expect(submissionsOf(upstream, fails)).toHaveLength(1);
    expect(await balance()).toBe('4801.00');
  });

  it('a submission that times out after the provider accepted it is never refunded on a guess: the retry looks the order up and finds the success, sending nothing again', async () => {
    const orderId = await place('0007');
    await service.settle(); // the answer never comes: the call is abandoned at PROVIDER_TIMEOUT_MS
    expect((await view(orderId)).status).toBe('PENDING');
    expect(await refunds(orderId)).toBe(0);

    await service.advance(FIRST_RETRY_MS);
    expect(await view(orderId)).toMatchObject({
      status: 'SUCCESS',
      operator_ref: transactionsOf(upstream, orderId)[0].operatorTransactionId,
    });
    expect(await refunds(orderId)).toBe(0);
    expect(submissionsOf(upstream, orderId)).toHaveLength(1);
    expect(transactionsOf(upstream, orderId)).toHaveLength(1);
    expect(await balance()).toBe('4801.00');
  });

  it('a submission that times out and failed upstream is failed and refunded once after the look-up', async () => {
    const orderId = await place('0008');
    await service.settle();
    expect((await view(orderId)).status).toBe('PENDING');
    await service.advance(FIRST_RETRY_MS);
    expect((await view(orderId)).status).toBe('FAILED');
    expect(await refunds(orderId)).toBe(1);
    expect(transactionsOf(upstream, orderId)).toHaveLength(1);
    expect(await balance()).toBe('5000.00');
  });

  it('a 5xx and "cannot be processed at the moment" leave the outcome unknown: never sent again, never refunded on a guess, failed with one refund once the horizon has passed and the report confirms nothing arrived; a 500 after recording is found at once', async () => {
    const unavailable = await place('0009');
    const erred = await place('0010');
    const busy = await place('0011');
    await service.settle();
    // The 500 came after the provider recorded the topup: the look-up finds it at once.
    expect((await view(erred)).status).toBe('SUCCESS');
    expect((await view(unavailable)).status).toBe('PENDING');
    expect((await view(busy)).status).toBe('PENDING');

    await service.advance(FIRST_RETRY_MS);
    await service.advance(POLL_AFTER_MS);
    for (const orderId of [unavailable, busy]) {
      expect((await view(orderId)).status).toBe('PENDING');
      expect(await refunds(orderId)).toBe(0);
      expect(await orderEvents(service, orderId, 'TransactionAttemptInDoubt')).not.toHaveLength(0);
      expect((await orderEvents(service, orderId, 'TransactionLookedUp')).length).toBeGreaterThan(0);
    }

    // Held at the stuck limit and looked up until the horizon: an empty report before it refunds nothing.
    await service.advance(STUCK_AFTER_MS);
    for (const orderId of [unavailable, busy]) {
      expect((await view(orderId)).status).toBe('PENDING');
      expect(await refunds(orderId)).toBe(0);
    }
    await service.advance(TOPUP_HORIZON_MS);
    for (const orderId of [unavailable, busy]) {
      expect(await view(orderId)).toMatchObject({ status: 'FAILED', refunded_at: expect.any(String) });
      expect(await refunds(orderId)).toBe(1);
      expect(transactionsOf(upstream, orderId)).toHaveLength(0);
      expect(submissionsOf(upstream, orderId)).toHaveLength(1);
      const [failed] = await orderEvents(service, orderId, 'TransactionFailed');
      expect(failed.data).toMatchObject({ basis: 'absence_confirmed' });
    }
    expect(submissionsOf(upstream, unavailable).map((submission) => submission.answer)).toEqual([503]);
    expect(submissionsOf(upstream, busy).map((submission) => submission.errorCode)).toEqual([
      'TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT',
    ]);
    expect(transactionsOf(upstream, erred)).toHaveLength(1);
    expect(await refunds(erred)).toBe(0);
  });

  it('a slow answer within the deadline settles at once', async () => {
    const orderId = await place('0006');
    await service.settle();
    expect((await view(orderId)).status).toBe('SUCCESS');
    expect(submissionsOf(upstream, orderId)).toHaveLength(1);
  });

  it('an order the provider never decides is held (DISPUTED) at the stuck limit, not refunded', async () => {
    const orderId = await place('0005');
    await service.settle();
    await service.advance(STUCK_AFTER_MS);
    const held = (await service.admin('GET', '/orders?held=true&limit=1000')).body.orders as {
      order_id: string;
      status: string;
    }[];
    expect(held.find((order) => order.order_id === orderId)?.status).toBe('DISPUTED');
    expect((await view(orderId)).status).toBe('PENDING');
    expect(await refunds(orderId)).toBe(0);
  });

  it('a token that expires mid-flight is replaced once and the order still settles', async () => {
    const orderId = await place('0003');
    await service.settle();
    const tokensBefore = upstream.simulator.state.tokensIssued;
    expect(upstream.simulator.state.expireTokens()).toBeGreaterThan(0);

    await service.advance(POLL_AFTER_MS);
    expect((await view(orderId)).status).toBe('SUCCESS');
    expect(upstream.simulator.state.tokensIssued - tokensBefore).toBe(1);
  });

  it('an order the float cannot cover is not sent: it fails with one refund, and the float shows in provider status and /metrics', async () => {
    const before = upstream.simulator.state.balance;
    upstream.simulator.state.balance = 100_000n; // 0.10 USD: less than 199 INR at the operator's rate
    try {
      const orderId = await place('0001');
      await service.settle();
      const failed = await view(orderId);
      expect(failed.status).toBe('FAILED');
      expect(await refunds(orderId)).toBe(1);
      expect(submissionsOf(upstream, orderId)).toHaveLength(0);
      expect(await balance()).toBe('5000.00');

      const status = await service.admin('GET', '/providers/status');
      expect(status.status).toBe(200);
      expect(status.body).toMatchObject({
        live_provider: 'reloadly',
        float: { balance: '0.1', currency: 'USD' },
        error: null,
      });
      const metrics = await service.request('GET', '/metrics', { token: TEST_ADMIN_TOKEN });
      expect(metrics.text).toContain('partner_service_provider_float{provider="reloadly",currency="USD"} 0.1');
    } finally {
      upstream.simulator.state.balance = before;
    }
  });

  it('cli provider status prints the live provider and the float, read now', async () => {
    const run = await cli(['provider', 'status'], service.url);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const float = {
      balance: expect.stringMatching(/^\d+(\.\d+)?$/),
      currency: 'USD',
      low_float_threshold: null,
      low: false,
      read_at: expect.any(String),
    };
    expect(JSON.parse(run.stdout)).toEqual({
      live_provider: 'reloadly',
      float,
      error: null,
      providers: [{ provider: 'reloadly', balance_endpoint: true, float, error: null }],
    });
  });

  it('live bill-info answers 409 invalid_state, never an invented bill: Reloadly cannot fetch bills', async () => {
    const answer = await service.partner('POST', '/bill-info', liveKey, {
      biller_id: 1005,
      consumer_number: '1234560001',
    });
    expectRefusal(answer, 409, 'invalid_state');
    expect(answer.body.detail).toBe(
      'Bangalore Electricity Supply Company (BESCOM) bills cannot be fetched in live, so none can be paid here for now; contact us',
    );
  });

  it('leaves every money invariant intact after all of the above', async () => {
    const verified = await service.verify();
    expect({ status: verified.status, body: verified.body }).toEqual({
      status: 200,
      body: expect.objectContaining({ ok: true, breaches: [] }),
    });
  });
});

describe('live orders without a live provider', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres' });
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await service?.close();
  });

  it('answer 503 provider_unavailable before any debit, and provider status shows none', async () => {
    const { liveKey } = await liveWalletPartner(service);
    expectRefusal(
      await service.topup(liveKey, { operator_id: 101, phone: phone('0001'), amount: 100 }, 'no-live-provider-1'),
      503,
      'provider_unavailable',
    );
    expect((await service.partner('GET', '/balance', liveKey)).body.available).toBe('5000.00');
    expect((await service.admin('GET', '/providers/status')).body).toEqual({
      live_provider: null,
      float: null,
      error: null,
      providers: [],
    });
  });
});
