import {
  BreakerPolicy,
  BreakerState,
  acceptsNewOrders,
  admitCall,
  closedBreaker,
  recordOutcome,
  reopensAt,
} from '../../../../src/domain/routing/circuit-breaker';

const policy: BreakerPolicy = { threshold: 3, coolDownMs: 30_000 };

function afterUnknowns(count: number, at = 0): BreakerState {
  let state = closedBreaker;
  for (let i = 0; i < count; i++) state = recordOutcome(state, 'unknown', at, policy);
  return state;
}

describe('a provider circuit breaker', () => {
  it('stays closed below the threshold of unknown outcomes in a row, and an answer resets the count', () => {
    const two = afterUnknowns(2);
    expect(two).toEqual({ status: 'closed', unknownInARow: 2 });
    expect(recordOutcome(two, 'answered', 0, policy)).toEqual(closedBreaker);
    expect(admitCall(two, 0, policy).allowed).toBe(true);
  });

  it('opens at the threshold and then lets no call and no new order through until the cool-down has passed', () => {
    const open = afterUnknowns(3, 1_000);
    expect(open).toEqual({ status: 'open', openedAt: 1_000, unknownInARow: 3 });
    expect(admitCall(open, 30_999, policy).allowed).toBe(false);
    expect(acceptsNewOrders(open, 30_999, policy)).toBe(false);
    expect(reopensAt(open, policy)).toBe(31_000);
  });

  it('after the cool-down lets exactly one call through as the probe', () => {
    const open = afterUnknowns(3, 1_000);
    const probe = admitCall(open, 31_000, policy);
    expect(probe).toEqual({ allowed: true, state: { status: 'probing', probeSince: 31_000, unknownInARow: 3 } });
    expect(admitCall(probe.state, 31_001, policy).allowed).toBe(false);
    expect(acceptsNewOrders(probe.state, 31_001, policy)).toBe(false);
  });

  it('closes when the probe is answered', () => {
    const { state } = admitCall(afterUnknowns(3), 30_000, policy);
    expect(recordOutcome(state, 'answered', 30_500, policy)).toEqual(closedBreaker);
  });

  it('opens for another cool-down when the probe gets no answer either', () => {
    const { state } = admitCall(afterUnknowns(3), 30_000, policy);
    const reopened = recordOutcome(state, 'unknown', 30_500, policy);
    expect(reopened).toEqual({ status: 'open', openedAt: 30_500, unknownInARow: 4 });
    expect(admitCall(reopened, 60_499, policy).allowed).toBe(false);
    expect(admitCall(reopened, 60_500, policy).allowed).toBe(true);
  });

  it('gives up a probe that never reported back after another cool-down, and probes again', () => {
    const { state } = admitCall(afterUnknowns(3), 30_000, policy);
    expect(admitCall(state, 59_999, policy).allowed).toBe(false);
    expect(admitCall(state, 60_000, policy)).toEqual({
      allowed: true,
      state: { status: 'probing', probeSince: 60_000, unknownInARow: 3 },
    });
  });

  it('a call that proves nothing (refused by the adapter itself) changes no count, and frees a probe for the next call', () => {
    const two = afterUnknowns(2);
    expect(recordOutcome(two, 'inconclusive', 0, policy)).toEqual(two);
    const { state } = admitCall(afterUnknowns(3), 30_000, policy);
    const freed = recordOutcome(state, 'inconclusive', 30_100, policy);
    expect(freed.status).toBe('open');
    expect(admitCall(freed, 30_100, policy).allowed).toBe(true);
  });

  it('an answer to a call sent before it opened closes it again', () => {
    expect(recordOutcome(afterUnknowns(3), 'answered', 5_000, policy)).toEqual(closedBreaker);
  });
});
