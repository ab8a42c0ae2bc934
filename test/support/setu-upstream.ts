import {
  RunningSetuSimulator,
  SetuSimulatorOptions,
  startSetuSimulator,
} from '../../tools/provider-sim/setu/setu-simulator';
import { HttpAnswer, TestService } from './test-service';
import { setRoute } from './live-provider';

/** Our billers -> the Setu simulator's BBPS ids: the routes `routeBillsToSetu` sets. */
export const SETU_SIM_ROUTES: Record<number, string> = {
  1001: 'AIRT00000NAT87',
  1005: 'BESCOM000KAR01',
  1008: 'BSESRAJ00DEL01',
  // Jaipur Vidyut Vitran Nigam: the simulator's biller that supports pending status (payments Processing for days).
  1013: 'JVVNL0000RAJ01',
  // The simulator's Delhi Jal Board takes the exact amount or above ("Exact and above").
  1017: 'DJB000000DEL01',
};

/** A BESCOM consumer number (10 digits) whose last four digits pick the simulator's scenario. */
export const bescom = (suffix: string) => `123456${suffix}`;
/** A Jaipur Vidyut Vitran Nigam K Number (12 digits), biller 1013. */
export const jvvnl = (suffix: string) => `12345678${suffix}`;

/** A running Setu simulator and the service environment that points the Setu adapter at it. */
export interface SetuUpstream {
  simulator: RunningSetuSimulator;
  /** SETU_* variables (no LIVE_PROVIDER(S): the caller names the providers). */
  setuEnv: Record<string, string>;
  /** LIVE_PROVIDER=setu and the SETU_* variables. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startSetuUpstream(options: SetuSimulatorOptions = {}): Promise<SetuUpstream> {
  const simulator = await startSetuSimulator({
    seed: 11,
    settleAfterMs: 0,
    hangMs: 3_000,
    clientId: 'setu-sim-client',
    clientSecret: 'setu-sim-secret-never-logged',
    ...options,
  });
  const setuEnv = {
    SETU_URL: simulator.url,
    SETU_CLIENT_ID: 'setu-sim-client',
    SETU_CLIENT_SECRET: 'setu-sim-secret-never-logged',
    SETU_PARTNER_ID: simulator.partnerId,
    SETU_AGENT_ID: 'AX01AI06512391457204',
    SETU_AGENT_IP: '124.170.23.24',
    SETU_AGENT_MAC: '48-4D-7E-CB-DB-6F',
    SETU_AGENT_MOBILE: '9876543210',
  };
  return { simulator, setuEnv, env: { LIVE_PROVIDER: 'setu', ...setuEnv }, close: () => simulator.close() };
}

/** Routes the billers of SETU_SIM_ROUTES to Setu (setting a route a biller already has records nothing). */
export async function routeBillsToSetu(service: TestService): Promise<void> {
  for (const [id, upstream] of Object.entries(SETU_SIM_ROUTES)) {
    const answer = await setRoute(service, { kind: 'biller', id: Number(id), provider: 'setu', upstream_id: upstream });
    if (answer.status !== 200) throw new Error(`route biller ${id} refused: ${answer.status} ${answer.text}`);
  }
}

export const billInfo = (service: TestService, key: string, consumerNumber: string, billerId = 1005) =>
  service.partner('POST', '/bill-info', key, { biller_id: billerId, consumer_number: consumerNumber });

export const payBill = (
  service: TestService,
  key: string,
  consumerNumber: string,
  amount: number,
  idempotencyKey: string,
  billerId = 1005,
): Promise<HttpAnswer> =>
  service.partner(
    'POST',
    '/pay-bill',
    key,
    { biller_id: billerId, consumer_number: consumerNumber, amount },
    { 'idempotency-key': idempotencyKey },
  );

/** What the Setu simulator holds for one order: its payments, and the payment requests it received. */
export const setuPaymentsOf = (upstream: SetuUpstream, orderId: string) =>
  upstream.simulator.state.payments.filter((payment) => payment.paymentRefId === orderId.replace('_', ''));
export const setuSubmissionsOf = (upstream: SetuUpstream, orderId: string) =>
  upstream.simulator.state.submissions.filter((submission) => submission.paymentRefId === orderId.replace('_', ''));
