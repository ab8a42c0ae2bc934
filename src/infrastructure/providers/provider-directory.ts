import { ProviderDirectory, ProviderGateway } from '../../application/ports/provider-gateway.port';
import { tracedProvider } from '../tracing/traced-provider';
import { tracingOn } from '../tracing/tracing';

export class StaticProviderDirectory implements ProviderDirectory {
  private readonly sandboxProvider: ProviderGateway;
  private readonly liveProviders: ReadonlyMap<string, ProviderGateway>;

  constructor(sandboxProvider: ProviderGateway, liveProviders: ReadonlyMap<string, ProviderGateway>) {
    const wrap = (name: string, gateway: ProviderGateway) => (tracingOn() ? tracedProvider(name, gateway) : gateway);
    this.sandboxProvider = wrap('sandbox', sandboxProvider);
    this.liveProviders = new Map([...liveProviders].map(([name, gateway]) => [name, wrap(name, gateway)]));
  }

  sandbox(): ProviderGateway {
    return this.sandboxProvider;
  }

  live(name: string): ProviderGateway | null {
    return this.liveProviders.get(name) ?? null;
  }

  liveNames(): string[] {
    return [...this.liveProviders.keys()];
  }
}
