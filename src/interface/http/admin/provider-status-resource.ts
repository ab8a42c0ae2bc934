import type { ProviderFloat } from '../../../application/operations/show-service-health';
import { LiveProviderStatus } from '../../../application/ports/provider-status.port';

export const providerFloatResource = (float: ProviderFloat | null) =>
  float && {
    balance: float.balance,
    currency: float.currency,
    low_float_threshold: float.lowFloatThreshold,
    low: float.low,
    read_at: float.readAt,
  };

const floatOf = (status: LiveProviderStatus) =>
  providerFloatResource(status.balance === null ? null : { ...status, balance: status.balance });

/** The (first) live provider and our float there; every field null when no provider is configured. */
const liveProviderResource = (status: LiveProviderStatus | undefined) =>
  status
    ? { live_provider: status.provider, float: floatOf(status), error: status.error }
    : { live_provider: null, float: null, error: null };

export const liveProvidersResource = (statuses: readonly LiveProviderStatus[]) => ({
  ...liveProviderResource(statuses[0]),
  providers: statuses.map((status) => ({
    provider: status.provider,
    balance_endpoint: status.balanceEndpoint ?? true,
    float: floatOf(status),
    error: status.error,
  })),
});
