/**
 * A provider's circuit breaker (decision 0056): `threshold` unknown outcomes in a row open it; after `coolDownMs`
 * one probe at a time goes through, an answer closes it, an unknown outcome reopens it. A probe that never
 * reports back is given up after another cool-down. Times are epoch milliseconds from the caller's clock.
 */
export interface BreakerPolicy {
  threshold: number;
  coolDownMs: number;
}

export type BreakerState =
  | { status: 'closed'; unknownInARow: number }
  | { status: 'open'; openedAt: number; unknownInARow: number }
  | { status: 'probing'; probeSince: number; unknownInARow: number };

/** `inconclusive`: the call ended without telling whether the provider is up (the adapter refused it itself, or failed on its own bug). */
export type CallOutcome = 'answered' | 'unknown' | 'inconclusive';

export const closedBreaker: BreakerState = { status: 'closed', unknownInARow: 0 };

/** Whether a call may go now, and the state after letting it (a probe is marked in flight). */
export function admitCall(
  state: BreakerState,
  now: number,
  policy: BreakerPolicy,
): { allowed: boolean; state: BreakerState } {
  switch (state.status) {
    case 'closed':
      return { allowed: true, state };
    case 'open':
      if (now - state.openedAt < policy.coolDownMs) return { allowed: false, state };
      return { allowed: true, state: { status: 'probing', probeSince: now, unknownInARow: state.unknownInARow } };
    case 'probing':
      if (now - state.probeSince < policy.coolDownMs) return { allowed: false, state };
      return { allowed: true, state: { status: 'probing', probeSince: now, unknownInARow: state.unknownInARow } };
  }
}

/** Whether a new order would be sent now: it is refused before any debit when its submission would not be. */
export function acceptsNewOrders(state: BreakerState, now: number, policy: BreakerPolicy): boolean {
  return admitCall(state, now, policy).allowed;
}

export function recordOutcome(
  state: BreakerState,
  outcome: CallOutcome,
  now: number,
  policy: BreakerPolicy,
): BreakerState {
  if (outcome === 'answered') return closedBreaker;
  // A probe that proved nothing frees the place: the next call probes at once.
  if (outcome === 'inconclusive')
    return state.status === 'probing'
      ? { status: 'open', openedAt: now - policy.coolDownMs, unknownInARow: state.unknownInARow }
      : state;
  const unknownInARow = state.unknownInARow + 1;
  if (state.status === 'probing') return { status: 'open', openedAt: now, unknownInARow };
  if (state.status === 'open') return { ...state, unknownInARow };
  return unknownInARow >= policy.threshold
    ? { status: 'open', openedAt: now, unknownInARow }
    : { status: 'closed', unknownInARow };
}

/** When the breaker lets a call through next (null: now). */
export function reopensAt(state: BreakerState, policy: BreakerPolicy): number | null {
  if (state.status === 'open') return state.openedAt + policy.coolDownMs;
  if (state.status === 'probing') return state.probeSince + policy.coolDownMs;
  return null;
}
