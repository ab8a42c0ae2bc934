import { BREAKER_POLICY, BreakerView } from '../../../application/routing/provider-breakers';

export interface BreakerStateResource {
  state: BreakerView['state'];
  unknown_in_a_row: number;
  /** When a call will be let through as the probe (open or probing); null when closed. */
  next_probe_at: string | null;
}

export interface BreakerResource extends BreakerStateResource {
  provider: string;
}

export interface BreakerPolicyResource {
  threshold: number;
  cool_down_seconds: number;
}

/** The breaker policy, and the breaker of each configured live provider. */
export interface ProviderBreakersResource extends BreakerPolicyResource {
  providers: BreakerResource[];
}

export const breakerPolicyResource = (): BreakerPolicyResource => ({
  threshold: BREAKER_POLICY.threshold,
  cool_down_seconds: BREAKER_POLICY.coolDownMs / 1000,
});

export const breakerStateResource = (breaker: Omit<BreakerView, 'provider'>): BreakerStateResource => ({
  state: breaker.state,
  unknown_in_a_row: breaker.unknownInARow,
  next_probe_at: breaker.nextProbeAt,
});

const breakerResource = (breaker: BreakerView): BreakerResource => ({
  provider: breaker.provider,
  ...breakerStateResource(breaker),
});

export const providerBreakersResource = (breakers: readonly BreakerView[]): ProviderBreakersResource => ({
  ...breakerPolicyResource(),
  providers: breakers.map(breakerResource),
});
