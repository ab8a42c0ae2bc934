import { describeFailure } from './failure-report';
import { runSimulation } from './simulation';

/**
 * A few seeds of the simulation on every test run (bounded: about 10 s each). The long hunt is
 * `npm run simulate -- --seeds 1000`; a seed it finds failing is replayed with the command it prints.
 */
const SEEDS = [1, 2, 3];
const STEPS = 50;

describe('seeded simulation of the money core', () => {
  let decidedAfterHold = 0;

  it.each(SEEDS)(
    'seed %i keeps every money invariant and read model, through crashes and late answers',
    async (seed) => {
      const result = await runSimulation({ seed, steps: STEPS });
      if (result.failure) throw new Error(describeFailure(result));
      expect(result.trace).toHaveLength(STEPS + 1);
      decidedAfterHold += result.stats.held_then_decided_by_provider ?? 0;
    },
    60_000,
  );

  it("the seeds above held orders that their upstream later decided, and the upstream's word ended them", () => {
    expect(decidedAfterHold).toBeGreaterThan(0);
  });

  // Concurrent steps are left out: which of several concurrent requests commits first is the database's call.
  it('replays a sequential seed exactly: the same steps get the same answers and the same order ids', async () => {
    const first = await runSimulation({ seed: 11, steps: 20, sequential: true });
    const second = await runSimulation({ seed: 11, steps: 20, sequential: true });
    expect(second.failure).toBeNull();
    expect(second.trace).toEqual(first.trace);
  }, 60_000);
});
