import { BREAKER_POLICY, BreakerView } from '../../../application/routing/provider-breakers';

export const breakerPolicyResource = () => ({
  threshold: BREAKER_POLICY.threshold,
  cool_down_seconds: BREAKER_POLICY.coolDownMs / 1000,
});

export const breakerStateResource = (breaker: Omit<BreakerView, 'provider'>) => ({
  state: breaker.state,
  unknown_in_a_row: breaker.unknownInARow,
  // When a call will be let through as the probe (open or probing); null when closed.
  next_probe_at: breaker.nextProbeAt,
});

const breakerResource = (breaker: BreakerView) => ({
  provider: breaker.provider,
  ...breakerStateResource(breaker),
});

/** The breaker policy, and the breaker of each configured live provider. */
export const providerBreakersResource = (breakers: readonly BreakerView[]) => ({
  ...breakerPolicyResource(),
  providers: breakers.map(breakerResource),
});
