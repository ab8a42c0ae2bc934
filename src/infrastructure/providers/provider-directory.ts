import { ProviderDirectory, ProviderGateway } from '../../application/ports/provider-gateway.port';
import { Environment } from '../../domain/shared/environment';

/** Sandbox keys use the sandbox provider; live keys use the live provider when one is configured. */
export class StaticProviderDirectory implements ProviderDirectory {
  constructor(
    private readonly sandbox: ProviderGateway,
    private readonly live: ProviderGateway | null,
  ) {}

  forEnvironment(environment: Environment): ProviderGateway | null {
    return environment === 'sandbox' ? this.sandbox : this.live;
  }
}
