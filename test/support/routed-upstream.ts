import { RunningSimulator, SimulatorOptions, startSimulator } from '../../tools/provider-sim/simulator';
import { TEST_ADMIN_TOKEN, TestService } from './test-service';

/** Our catalog ids -> the simulator's Reloadly ids, as live routes. */
export const SIM_ROUTES: ReadonlyArray<{ kind: 'operator' | 'biller'; id: number; upstream_id: string }> = [
  { kind: 'operator', id: 101, upstream_id: '1201' },
  { kind: 'operator', id: 102, upstream_id: '1202' },
  { kind: 'operator', id: 201, upstream_id: '1401' },
  { kind: 'biller', id: 1005, upstream_id: '301' },
];

export interface RoutedUpstream {
  simulator: RunningSimulator;
  /** The service environment that points the Reloadly adapter at the simulator. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startRoutedUpstream(options: SimulatorOptions = {}): Promise<RoutedUpstream> {
  const simulator = await startSimulator({ seed: 11, settleAfterMs: 0, slowMs: 200, hangMs: 3_000, ...options });
  return {
    simulator,
    env: {
      LIVE_PROVIDER: 'reloadly',
      RELOADLY_CLIENT_ID: 'sim-client',
      RELOADLY_CLIENT_SECRET: 'sim-secret-never-logged',
      RELOADLY_AUTH_URL: simulator.authUrl,
      RELOADLY_TOPUPS_URL: simulator.topupsUrl,
      RELOADLY_UTILITIES_URL: simulator.utilitiesUrl,
    },
    close: () => simulator.close(),
  };
}

/** Sets a live route through the back office, as the operator named. */
export async function setRoute(service: TestService, route: { kind: 'operator' | 'biller'; id: number; provider?: string; upstream_id: string }, operator = 'ops-alice') {
  return service.request('POST', '/v1/admin/routes', {
    token: TEST_ADMIN_TOKEN,
    headers: { 'x-operator-id': operator },
    body: { provider: 'reloadly', ...route },
  });
}

/** A KYC-approved partner with a live wallet credited with `amount`. */
export async function livePartner(service: TestService, corridor: 'IN' | 'BD' | 'SG' = 'IN', amount = '5000.00'): Promise<{ partnerId: string; liveKey: string }> {
  const { partnerId } = await service.createPartner(corridor);
  const approved = await service.admin('POST', `/partners/${partnerId}/kyc`, { status: 'approved' });
  if (approved.status !== 200) throw new Error(`kyc approval failed: ${approved.status} ${approved.text}`);
  const credited = await service.admin('POST', `/partners/${partnerId}/wallet-credits`, { environment: 'live', amount, reference: 'wire for live tests' });
  if (credited.status !== 200) throw new Error(`live credit failed: ${credited.status} ${credited.text}`);
  return { partnerId, liveKey: approved.body.live_api_key };
}

/** The simulator's transactions under one order id (customIdentifier / referenceId). */
export const upstreamTransactionsOf = (upstream: RoutedUpstream, orderId: string) => upstream.simulator.state.transactions.filter((transaction) => transaction.reference === orderId);
