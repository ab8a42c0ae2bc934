import { Inject, Injectable } from '@nestjs/common';
import {
  BreakerPolicy,
  BreakerState,
  CallOutcome,
  acceptsNewOrders,
  admitCall,
  closedBreaker,
  recordOutcome,
  reopensAt,
} from '../../domain/routing/circuit-breaker';
import { CLOCK, Clock } from '../ports/clock.port';

/** Five unknown outcomes in a row open a provider's breaker; after 30 s one call probes. */
export const BREAKER_POLICY: BreakerPolicy = { threshold: 5, coolDownMs: 30_000 };

export interface BreakerView {
  provider: string;
  state: BreakerState['status'];
  unknownInARow: number;
  /** When a call will be let through as the probe (open or probing); null when closed. */
  nextProbeAt: string | null;
}

/**
 * One circuit breaker per live provider, in this process: each process learns on its own that a
 * provider stopped answering, from its own calls (decision 0056).
 */
@Injectable()
export class ProviderBreakers {
  private readonly states = new Map<string, BreakerState>();

  constructor(@Inject(CLOCK) private readonly clock: Clock) {}

  acceptsNewOrders(provider: string): boolean {
    return acceptsNewOrders(this.stateOf(provider), this.now(), BREAKER_POLICY);
  }

  /** Takes a place for one call; false when the breaker refuses it. */
  admit(provider: string): boolean {
    const { allowed, state } = admitCall(this.stateOf(provider), this.now(), BREAKER_POLICY);
    this.states.set(provider, state);
    return allowed;
  }

  record(provider: string, outcome: CallOutcome): void {
    this.states.set(provider, recordOutcome(this.stateOf(provider), outcome, this.now(), BREAKER_POLICY));
  }

  view(provider: string): BreakerView {
    const state = this.stateOf(provider);
    const next = reopensAt(state, BREAKER_POLICY);
    return {
      provider,
      state: state.status,
      unknownInARow: state.unknownInARow,
      nextProbeAt: next === null ? null : new Date(next).toISOString(),
    };
  }

  private stateOf(provider: string): BreakerState {
    return this.states.get(provider) ?? closedBreaker;
  }

  private now(): number {
    return this.clock.now().getTime();
  }
}
