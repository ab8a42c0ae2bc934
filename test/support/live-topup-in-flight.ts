import { EVENT_STORE, EventStore, RecordedEvent } from '../../src/application/ports/event-store.port';
import { ManualClock } from './manual-clock';
import { ReloadlyLiveProvider } from '../../src/infrastructure/providers/reloadly/reloadly-live-provider';
import { StaticProviderDirectory } from '../../src/infrastructure/providers/provider-directory';
import { ProviderWithDeadline } from '../../src/infrastructure/providers/provider-deadline';
import { SandboxProvider } from '../../src/infrastructure/providers/sandbox/sandbox-provider';
import { RunningSimulator } from '../../tools/provider-sim/simulator';
import { foldLog } from '../simulation/invariant-checks';
import { ScriptedWebhookReceiver } from '../simulation/scripted-webhook-receiver';
import { SeededRandom } from '../simulation/seeded-random';
import { SeededSecrets } from '../simulation/seeded-secrets';
import { ServiceDoubles, SimulatedService } from '../simulation/simulated-service';
import { waitFor } from './wait-for';

/** A service's doubles for the live-topup drills: live orders go to the Reloadly-protocol simulator. */
export function liveDrillDoubles(simulator: RunningSimulator, clock: ManualClock): ServiceDoubles {
  const reloadly = new ReloadlyLiveProvider({
    clientId: 'drill',
    clientSecret: 'drill-secret',
    authUrl: simulator.authUrl,
    topupsUrl: simulator.topupsUrl,
    utilitiesUrl: simulator.utilitiesUrl,
    lowFloatThreshold: null,
    reportTimeZone: 'America/New_York',
  });
  const random = new SeededRandom(27);
  return {
    clock,
    providers: new StaticProviderDirectory(
      new SandboxProvider(),
      new Map([['reloadly', new ProviderWithDeadline(reloadly.provider, 20_000)]]),
    ),
    webhookSender: new ScriptedWebhookReceiver(random.fork('hooks')),
    secrets: new SeededSecrets(random.fork('ids')),
  };
}

/**
 * On a fresh service: a KYC-approved partner with 1,000.00 live, operator 101 routed to Reloadly, and a live
 * topup of 199 to a number the simulator holds in flight (suffix 0012); the service crashes once the topup
 * has reached the upstream. The partner's live key and the order id are returned.
 */
export async function crashWithLiveTopupInFlight(
  service: SimulatedService,
  simulator: RunningSimulator,
): Promise<{ token: string; orderId: string }> {
  const created = await service.admin('POST', '/partners', { name: 'In Flight', corridor: 'IN' });
  const partnerId = created.body.partner_id as string;
  const approved = await service.admin('POST', `/partners/${partnerId}/kyc`, { status: 'approved' });
  const token = approved.body.live_api_key as string;
  const credited = await service.admin('POST', `/partners/${partnerId}/wallet-credits`, {
    environment: 'live',
    amount: '1000.00',
    reference: 'wire',
  });
  if (credited.status !== 200) throw new Error(`the live credit was answered ${credited.status}`);
  const routed = await service.admin(
    'POST',
    '/routes',
    { kind: 'operator', id: 101, provider: 'reloadly', upstream_id: '1201' },
    { 'x-operator-id': 'ops-drill' },
  );
  if (routed.status !== 200) throw new Error(`the route was answered ${routed.status}`);
  await service.settle();
  const placed = await service.request('POST', '/v1/partner/topup', {
    token,
    body: { operator_id: 101, phone: '+919876540012', amount: 199 },
    headers: { 'idempotency-key': 'in-flight-across-a-crash' },
  });
  if (placed.status !== 200) throw new Error(`the topup was answered ${placed.status}`);
  const orderId = placed.body.order_id as string;

  const settling = service.settle().catch(() => undefined);
  await waitFor(() => simulator.state.submissions.some((sent) => sent.reference === orderId), {
    what: 'the topup to reach the upstream',
  });
  await service.crash();
  void settling;
  return { token, orderId };
}

const orderOf = async (service: SimulatedService, orderId: string) =>
  (await foldLog(service.get<EventStore>(EVENT_STORE))).orders.get(orderId);
const sentOf = (simulator: RunningSimulator, orderId: string) =>
  simulator.state.submissions.filter((sent) => sent.reference === orderId);

/**
 * After the crash: the order is put in doubt and looked up, never sent again and never refunded. Its own
 * stream is returned.
 */
export async function expectInDoubtNotSentAgain(
  service: SimulatedService,
  simulator: RunningSimulator,
  orderId: string,
): Promise<RecordedEvent[]> {
  expect(await orderOf(service, orderId)).toMatchObject({ state: { status: 'INITIATED' }, refunds: 0 });
  const stream = await service.get<EventStore>(EVENT_STORE).readStream(`order-${orderId}`);
  expect(stream.map((event) => event.type)).toEqual([
    'TransactionInitiated',
    'TransactionAttemptInDoubt',
    'TransactionLookedUp',
  ]);
  expect(sentOf(simulator, orderId)).toHaveLength(1);
  return stream;
}

/**
 * Once the upstream shows the topup, the next look-up settles the order once: sent once, one upstream
 * transaction, the 1,000.00 debited 199 once, and verify clean.
 */
export async function expectSettledOnceWhenShown(
  service: SimulatedService,
  simulator: RunningSimulator,
  clock: ManualClock,
  { token, orderId }: { token: string; orderId: string },
): Promise<void> {
  for (const transaction of simulator.state.transactions) transaction.visibleAt = Date.now();
  clock.advance(30_000);
  await service.settle();
  expect(await orderOf(service, orderId)).toMatchObject({ state: { status: 'SUCCESS' }, refunds: 0 });
  expect(sentOf(simulator, orderId)).toHaveLength(1);
  expect(simulator.state.transactions.filter((item) => item.reference === orderId)).toHaveLength(1);
  expect((await service.request('GET', '/v1/partner/balance', { token })).body.available).toBe('801.00');
  expect((await service.admin('GET', '/verify')).body).toMatchObject({ ok: true, breaches: [] });
}
