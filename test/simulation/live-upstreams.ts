import { ProviderDirectory, ProviderGateway } from '../../src/application/ports/provider-gateway.port';
import { JsonCatalog } from '../../src/infrastructure/catalog/json-catalog';
import { ProviderWithDeadline } from '../../src/infrastructure/providers/provider-deadline';
import { ReloadlyApiClient } from '../../src/infrastructure/providers/reloadly/reloadly-api';
import { ReloadlyFloat } from '../../src/infrastructure/providers/reloadly/reloadly-float';
import { ReloadlyHttp } from '../../src/infrastructure/providers/reloadly/reloadly-http';
import { ReloadlyProvider } from '../../src/infrastructure/providers/reloadly/reloadly-provider';
import { ReloadlyTokens } from '../../src/infrastructure/providers/reloadly/reloadly-tokens';
import { SetuLiveProvider } from '../../src/infrastructure/providers/setu/setu-live-provider';
import { RunningSetuSimulator, startSetuSimulator } from '../../tools/provider-sim/setu/setu-simulator';
import { RunningSimulator, startSimulator } from '../../tools/provider-sim/simulator';

const PROVIDER_TIMEOUT_MS = 5_000;
const QUIET = { log: () => undefined, error: () => undefined, warn: () => undefined };

/**
 * The upstreams of the simulation: the scripted one for the sandbox, and, for live wallets, the
 * real Reloadly and Setu adapters over HTTP to the two protocol simulators (settling at once, so
 * a seed's outcomes do not depend on the wall clock). Live orders go where their routes say.
 */
export class LiveUpstreams implements ProviderDirectory {
  private constructor(
    private readonly scripted: ProviderGateway,
    private readonly adapters: ReadonlyMap<string, ProviderGateway>,
    private readonly simulators: { reloadly: RunningSimulator; setu: RunningSetuSimulator },
  ) {}

  static async start(scripted: ProviderGateway, seed: number): Promise<LiveUpstreams> {
    const reloadlySim = await startSimulator({ seed, settleAfterMs: 0, balance: '100000.00' });
    const setuSim = await startSetuSimulator({ seed, settleAfterMs: 0, fetchPendingReads: 0 });
    const reloadlyConfig = {
      clientId: 'sim',
      clientSecret: 'sim-secret',
      authUrl: reloadlySim.authUrl,
      topupsUrl: reloadlySim.topupsUrl,
      utilitiesUrl: reloadlySim.utilitiesUrl,
      lowFloatThreshold: null,
      reportTimeZone: 'America/New_York',
    };
    const reloadlyApi = new ReloadlyApiClient(new ReloadlyHttp(reloadlyConfig, new ReloadlyTokens(reloadlyConfig)));
    const reloadly = new ReloadlyProvider(reloadlyApi, new ReloadlyFloat(reloadlyApi, null, () => undefined));
    const setu = new SetuLiveProvider(
      {
        url: setuSim.url,
        clientId: 'sim',
        clientSecret: 'sim-secret',
        partnerId: setuSim.partnerId,
        agentId: 'AX01AI06512391457204',
        agentIp: '124.170.23.24',
        agentMac: '48-4D-7E-CB-DB-6F',
        agentMobile: '9876543210',
        remitterName: 'Partner prepaid wallet',
      },
      new JsonCatalog(),
      QUIET,
    );
    return new LiveUpstreams(
      scripted,
      new Map([
        ['reloadly', new ProviderWithDeadline(reloadly, PROVIDER_TIMEOUT_MS, 'reloadly')],
        ['setu', new ProviderWithDeadline(setu.provider, PROVIDER_TIMEOUT_MS, 'setu')],
      ]),
      { reloadly: reloadlySim, setu: setuSim },
    );
  }

  sandbox(): ProviderGateway {
    return this.scripted;
  }

  live(name: string): ProviderGateway | null {
    return this.adapters.get(name) ?? null;
  }

  liveNames(): string[] {
    return [...this.adapters.keys()];
  }

  /** Upstream payments and topups under one of our order ids (the identifier each protocol carries). */
  upstreamCountOf(orderId: string): number {
    return (
      this.simulators.reloadly.state.transactions.filter((transaction) => transaction.reference === orderId).length +
      this.simulators.setu.state.payments.filter((payment) => payment.paymentRefId === orderId.replace('_', '')).length
    );
  }

  async close(): Promise<void> {
    await this.simulators.reloadly.close();
    await this.simulators.setu.close();
  }
}
