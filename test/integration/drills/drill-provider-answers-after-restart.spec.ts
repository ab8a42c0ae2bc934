import { EVENT_STORE, EventStore } from '../../../src/application/ports/event-store.port';
import { ManualClock } from '../../support/manual-clock';
import { foldLog } from '../../simulation/invariant-checks';
import { ScriptedWebhookReceiver } from '../../simulation/scripted-webhook-receiver';
import { SeededRandom } from '../../simulation/seeded-random';
import { SeededSecrets } from '../../simulation/seeded-secrets';
import { ServiceDoubles, SimulatedService } from '../../simulation/simulated-service';
import { ControlledProvider } from '../../support/controlled-provider';
import { createTestDatabase, TestDatabase } from '../../support/postgres-test-database';
import { SANDBOX_PHONES } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

/*
 * Failure drill: the provider answers after the service restarted. The service (the real
 * application on PostgreSQL, background work run by hand) submits an order and dies with the call
 * in flight; the restarted service retries the submission once the job's lease has run out, and
 * that call is still in flight when another process holds the order at the stuck-order timer
 * (and, in the second case, an operator fails it and the refund is booked). Then the provider
 * answers. The answer is applied once, the order is refunded at most once, and verify passes.
 */
jest.setTimeout(SERVICE_START_TIMEOUT_MS);

const MINUTE = 60_000;

describe('failure drill: the provider answering after the service restarted', () => {
  let database: TestDatabase;
  let provider: ControlledProvider;
  let doubles: ServiceDoubles;
  const services: SimulatedService[] = [];

  const start = async (): Promise<SimulatedService> => {
    const service = await SimulatedService.start(database.connectionString, doubles);
    services.push(service);
    return service;
  };

  beforeEach(async () => {
    database = await createTestDatabase('drill_late');
    provider = new ControlledProvider();
    const random = new SeededRandom(18);
    doubles = {
      clock: new ManualClock(),
      providers: provider,
      webhookSender: new ScriptedWebhookReceiver(random.fork('hooks')),
      secrets: new SeededSecrets(random.fork('ids')),
    };
  });
  afterEach(async () => {
    for (const service of services.splice(0)) await service.crash().catch(() => undefined);
    await database.drop();
  });

  /** A partner and one order of 100.00 whose first submission is in flight when the service dies; returns the restarted service. */
  async function orderInFlightAcrossACrash(): Promise<{
    first: SimulatedService;
    restarted: SimulatedService;
    orderId: string;
    token: string;
  }> {
    const first = await start();
    const created = await first.admin('POST', '/partners', { name: 'Late Answers', corridor: 'IN' });
    const token = created.body.sandbox_api_key as string;
    await first.settle();
    const placed = await first.request('POST', '/v1/partner/topup', {
      token,
      body: { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 100 },
      headers: { 'idempotency-key': 'late-answer-0001' },
    });
    expect(placed.status).toBe(200);
    const settling = first.settle().catch(() => undefined);
    expect((await provider.nextCall()).orderId).toBe(placed.body.order_id);
    await first.crash();
    void settling;
    return { first, restarted: await start(), orderId: placed.body.order_id, token };
  }

  /** The restarted service retries the submission after the lease; the call stays in flight. */
  async function retryInFlight(
    restarted: SimulatedService,
    orderId: string,
  ): Promise<{
    answer: (outcome: Parameters<Awaited<ReturnType<ControlledProvider['nextCall']>>['answer']>[0]) => void;
    settled: Promise<void>;
  }> {
    doubles.clock.advance(5 * MINUTE + 1_000);
    const settled = restarted.settle();
    const call = await provider.nextCall();
    expect(call.orderId).toBe(orderId);
    return { answer: call.answer, settled };
  }

  async function refundsAndStatus(
    service: SimulatedService,
    orderId: string,
  ): Promise<{ status: string; refunds: number; lateAnswer: string | null }> {
    const fold = await foldLog(service.get<EventStore>(EVENT_STORE));
    const order = fold.orders.get(orderId);
    return {
      status: order?.state.status ?? 'none',
      refunds: order?.refunds ?? -1,
      lateAnswer: order?.state.lateAnswer?.outcome ?? null,
    };
  }

  it("a failure answered after the order was held ends it: the provider's record refunds it once, and nothing is left to resolve", async () => {
    const { restarted, orderId, token } = await orderInFlightAcrossACrash();
    const retry = await retryInFlight(restarted, orderId);

    // Another process holds the order at the stuck-order timer while the call is in flight. By then
    // the retry's lease has run out too, so that process submits once more: the upstream says pending.
    const other = await start();
    provider.answerEveryCallWith = { status: 'pending', providerReference: null, pollAfterMs: null };
    doubles.clock.advance(11 * MINUTE);
    await other.settle();
    expect(await refundsAndStatus(other, orderId)).toEqual({ status: 'DISPUTED', refunds: 0, lateAnswer: null });

    retry.answer({ status: 'failed', reason: 'declined upstream', basis: 'provider_record' });
    await retry.settled;
    await other.settle();
    expect(await refundsAndStatus(other, orderId)).toEqual({ status: 'FAILED', refunds: 1, lateAnswer: null });

    const resolved = await other.admin('POST', `/orders/${orderId}/resolve`, {
      outcome: 'failed',
      reason: 'the provider declined it',
    });
    expect(resolved.status).toBe(409);
    await other.crash();
    const last = await start();
    doubles.clock.advance(60 * MINUTE);
    await last.settle();
    expect(await refundsAndStatus(last, orderId)).toEqual({ status: 'FAILED', refunds: 1, lateAnswer: null });
    expect((await last.request('GET', '/v1/partner/balance', { token })).body.available).toBe('1000.00');
    expect((await last.admin('GET', '/verify')).body).toMatchObject({ ok: true, breaches: [], in_progress: [] });
  });

  it('a success answered after an operator failed the held order books no second refund and no settlement', async () => {
    const { restarted, orderId, token } = await orderInFlightAcrossACrash();
    const retry = await retryInFlight(restarted, orderId);

    const other = await start();
    provider.answerEveryCallWith = { status: 'pending', providerReference: null, pollAfterMs: null };
    doubles.clock.advance(11 * MINUTE);
    await other.settle();
    const resolved = await other.admin('POST', `/orders/${orderId}/resolve`, {
      outcome: 'failed',
      reason: 'no answer from the provider',
    });
    expect(resolved.status).toBe(200);
    await other.settle();
    expect(await refundsAndStatus(other, orderId)).toMatchObject({ status: 'FAILED', refunds: 1 });

    retry.answer({ status: 'succeeded', operatorRef: 'late-success' });
    await retry.settled.catch(() => undefined);
    await restarted.crash();
    const last = await start();
    doubles.clock.advance(60 * MINUTE);
    await last.settle();
    await other.settle();
    expect(await refundsAndStatus(last, orderId)).toMatchObject({ status: 'FAILED', refunds: 1 });
    expect((await last.request('GET', '/v1/partner/balance', { token })).body.available).toBe('1000.00');
    expect((await last.admin('GET', '/verify')).body).toMatchObject({ ok: true, breaches: [], in_progress: [] });
  });
});
