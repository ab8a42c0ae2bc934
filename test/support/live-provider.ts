import { RunningSimulator, SimulatorOptions, startSimulator } from '../../tools/provider-sim/simulator';
import { TEST_ADMIN_TOKEN, TestService } from './test-service';

/** Our catalog ids -> the simulator's Reloadly ids: the live routes `routeToSimulator` sets. */
export const SIM_ROUTES = {
  operators: { '101': 1201, '102': 1202, '201': 1401, '301': 1601 },
  billers: { '1005': 301, '2009': 402, '3001': 501 },
};

/** A running upstream simulator and the service environment that points the live adapter at it. */
export interface LiveUpstream {
  simulator: RunningSimulator;
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startLiveUpstream(
  options: SimulatorOptions = {},
  extraEnv: Record<string, string> = {},
): Promise<LiveUpstream> {
  // The two-minute rule is off unless a test asks for it: tests top up the same numbers many times.
  const simulator = await startSimulator({
    seed: 7,
    settleAfterMs: 0,
    slowMs: 200,
    hangMs: 3_000,
    recentRechargeMs: 0,
    ...options,
  });
  return {
    simulator,
    env: {
      LIVE_PROVIDER: 'reloadly',
      RELOADLY_CLIENT_ID: 'sim-client',
      RELOADLY_CLIENT_SECRET: 'sim-secret-never-logged',
      RELOADLY_AUTH_URL: simulator.authUrl,
      RELOADLY_TOPUPS_URL: simulator.topupsUrl,
      RELOADLY_UTILITIES_URL: simulator.utilitiesUrl,
      ...extraEnv,
    },
    close: () => simulator.close(),
  };
}

/** Sets a live route through the back office, with the token of the engineer named (the actor recorded). */
export async function setRoute(
  service: TestService,
  route: { kind: 'operator' | 'biller'; id: number; provider?: string; upstream_id: string },
  operator = 'ops-alice',
) {
  return service.adminAs(await service.operatorToken(operator, 'engineer'), 'POST', '/routes', {
    provider: 'reloadly',
    ...route,
  });
}

/** Routes every product of SIM_ROUTES to the simulator (setting a route a product has already records nothing). */
export async function routeToSimulator(service: TestService): Promise<void> {
  const routes = [
    ...Object.entries(SIM_ROUTES.operators).map(([id, upstream]) => ({
      kind: 'operator' as const,
      id: Number(id),
      upstream_id: String(upstream),
    })),
    ...Object.entries(SIM_ROUTES.billers).map(([id, upstream]) => ({
      kind: 'biller' as const,
      id: Number(id),
      upstream_id: String(upstream),
    })),
  ];
  for (const route of routes) {
    const answer = await setRoute(service, route);
    if (answer.status !== 200)
      throw new Error(`route ${route.kind} ${route.id} refused: ${answer.status} ${answer.text}`);
  }
}

/** A KYC-approved partner with a live wallet credited with `amount`. */
export async function liveWalletPartner(
  service: TestService,
  corridor: 'IN' | 'BD' | 'SG' = 'IN',
  amount = '5000.00',
): Promise<{ partnerId: string; liveKey: string }> {
  const { partnerId } = await service.createPartner(corridor);
  const approved = await service.admin('POST', `/partners/${partnerId}/kyc`, { status: 'approved' });
  if (approved.status !== 200) throw new Error(`kyc approval failed: ${approved.status} ${approved.text}`);
  const credited = await service.request('POST', `/v1/admin/partners/${partnerId}/wallet-credits`, {
    token: TEST_ADMIN_TOKEN,
    body: { environment: 'live', amount, reference: 'wire for live tests' },
  });
  if (credited.status !== 200) throw new Error(`live credit failed: ${credited.status} ${credited.text}`);
  return { partnerId, liveKey: approved.body.live_api_key };
}

/** What the simulator received for one order id (customIdentifier / referenceId). */
export const submissionsOf = (upstream: LiveUpstream, orderId: string) =>
  upstream.simulator.state.submissions.filter((submission) => submission.reference === orderId);
export const transactionsOf = (upstream: LiveUpstream, orderId: string) =>
  upstream.simulator.state.transactions.filter((transaction) => transaction.reference === orderId);

/** A Reloadly-protocol simulator, a service on PostgreSQL pointed at it (operator 101 routed there), and a live partner. */
export async function startLiveReloadlyService(
  stuckAfterMs: number,
): Promise<{ upstream: LiveUpstream; service: TestService; liveKey: string }> {
  const upstream = await startLiveUpstream();
  const service = await TestService.start({
    store: 'postgres',
    env: { ...upstream.env, STUCK_ORDER_AFTER_SECONDS: String(stuckAfterMs / 1000) },
  });
  await setRoute(service, { kind: 'operator', id: 101, upstream_id: '1201' });
  const { liveKey } = await liveWalletPartner(service);
  return { upstream, service, liveKey };
}
