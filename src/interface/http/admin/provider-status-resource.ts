import type { ProviderFloat } from '../../../application/operations/show-service-health';
import { LiveProviderStatus } from '../../../application/ports/provider-status.port';

export interface ProviderFloatResource {
  balance: string;
  currency: string | null;
  low_float_threshold: string | null;
  low: boolean | null;
  read_at: string | null;
}

/** The (first) live provider and our float there; every field null when no provider is configured. */
export interface LiveProviderResource {
  live_provider: string | null;
  float: ProviderFloatResource | null;
  error: string | null;
}

export interface ConfiguredProviderResource {
  provider: string;
  balance_endpoint: boolean;
  float: ProviderFloatResource | null;
  error: string | null;
}

export interface LiveProvidersResource extends LiveProviderResource {
  providers: ConfiguredProviderResource[];
}

export const providerFloatResource = (float: ProviderFloat | null): ProviderFloatResource | null =>
  float && {
    balance: float.balance,
    currency: float.currency,
    low_float_threshold: float.lowFloatThreshold,
    low: float.low,
    read_at: float.readAt,
  };

const floatOf = (status: LiveProviderStatus): ProviderFloatResource | null =>
  providerFloatResource(status.balance === null ? null : { ...status, balance: status.balance });

const liveProviderResource = (status: LiveProviderStatus | undefined): LiveProviderResource =>
  status
    ? { live_provider: status.provider, float: floatOf(status), error: status.error }
    : { live_provider: null, float: null, error: null };

export const liveProvidersResource = (statuses: readonly LiveProviderStatus[]): LiveProvidersResource => ({
  ...liveProviderResource(statuses[0]),
  providers: statuses.map((status) => ({
    provider: status.provider,
    balance_endpoint: status.balanceEndpoint ?? true,
    float: floatOf(status),
    error: status.error,
  })),
});
