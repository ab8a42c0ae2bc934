import { ProviderDirectory, ProviderGateway } from '../../application/ports/provider-gateway.port';

/** The sandbox adapter, and the live adapters configured at start by name. */
export class StaticProviderDirectory implements ProviderDirectory {
  constructor(
    private readonly sandboxProvider: ProviderGateway,
    private readonly liveProviders: ReadonlyMap<string, ProviderGateway>,
  ) {}

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
