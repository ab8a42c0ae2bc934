import { EventStore } from '../../../../src/application/ports/event-store.port';
import { ProjectionDaemon } from '../../../../src/infrastructure/projections/projection-daemon';
import { Projector } from '../../../../src/infrastructure/projections/projector';

/** A projector whose runs end only when the test says so. */
function slowProjector(name: string) {
  const runs: (() => void)[] = [];
  const projector = {
    name,
    position: null,
    start: async () => undefined,
    refreshPosition: () => undefined,
    hasReached: () => false,
    storedPosition: async () => null,
    catchUp: jest.fn(() => new Promise<number>((resolve) => runs.push(() => resolve(1)))),
  };
  return {
    projector: projector as unknown as Projector,
    calls: () => projector.catchUp.mock.calls.length,
    finishRun: () => runs.shift()?.(),
  };
}

/** The projectors here are stand-ins: no lag is asked of the log. */
const NO_LAG = { countEvents: () => Promise.resolve(0) };

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('projection daemon under a steady stream of appends', () => {
  it('runs one catch-up at a time and one more after it, however many appends arrive meanwhile', async () => {
    let appended: () => void = () => undefined;
    const store: Pick<EventStore, 'readAll' | 'subscribe'> = {
      readAll: () => Promise.resolve([]),
      subscribe: (listener: () => void) => ((appended = listener), () => undefined),
    };
    const readModels = slowProjector('read-models');
    const daemon = new ProjectionDaemon([readModels.projector], [], store, NO_LAG, 0, (error) => {
      throw error;
    });
    await daemon.start({ follow: true });
    await settle();
    expect(readModels.calls()).toBe(1);

    for (let i = 0; i < 10_000; i++) appended();
    await settle();
    expect(readModels.calls()).toBe(1);

    readModels.finishRun();
    await settle();
    expect(readModels.calls()).toBe(2);
    readModels.finishRun();
    await settle();
    expect(readModels.calls()).toBe(2);
  });
});

describe('projection runs that follow appends, spaced to gather events', () => {
  /** A clock the test moves, and the daemon's waits, which end when the clock passes them. */
  function manualSpacing(gatherMs: number) {
    let now = 1_000;
    const waits: { until: number; resolve: () => void }[] = [];
    return {
      spacing: {
        gatherMs,
        now: () => now,
        wait: (ms: number) => new Promise<void>((resolve) => waits.push({ until: now + ms, resolve })),
      },
      waiting: () => waits.length,
      advance(ms: number) {
        now += ms;
        for (const due of waits.filter((w) => w.until <= now)) {
          waits.splice(waits.indexOf(due), 1);
          due.resolve();
        }
      },
    };
  }

  function instantProjector() {
    const projector = {
      name: 'read-models',
      position: null,
      start: async () => undefined,
      refreshPosition: () => undefined,
      // Reached once a run has followed the one at start.
      hasReached: () => projector.catchUp.mock.calls.length > 1,
      storedPosition: async () => null,
      catchUp: jest.fn(async () => 1),
    };
    return { projector: projector as unknown as Projector, calls: () => projector.catchUp.mock.calls.length };
  }

  async function startedDaemon(gatherMs: number) {
    let appended: () => void = () => undefined;
    const store: Pick<EventStore, 'readAll' | 'subscribe'> = {
      readAll: () => Promise.resolve([]),
      subscribe: (listener: () => void) => ((appended = listener), () => undefined),
    };
    const readModels = instantProjector();
    const clock = manualSpacing(gatherMs);
    const daemon = new ProjectionDaemon(
      [readModels.projector],
      [],
      store,
      NO_LAG,
      0,
      (error) => {
        throw error;
      },
      clock.spacing,
    );
    await daemon.start({ follow: true });
    await settle();
    return { daemon, clock, calls: readModels.calls, append: () => appended() };
  }

  it('runs at once when the previous run is older than the gathering time', async () => {
    const { clock, calls, append } = await startedDaemon(20);
    expect(calls()).toBe(1);
    clock.advance(25);
    append();
    await settle();
    expect(calls()).toBe(2);
    expect(clock.waiting()).toBe(0);
  });

  it('gathers the appends that come sooner into one run, started when the gathering time is over', async () => {
    const { clock, calls, append } = await startedDaemon(20);
    expect(calls()).toBe(1);
    clock.advance(5);
    for (let i = 0; i < 50; i++) append();
    await settle();
    expect(calls()).toBe(1);
    clock.advance(14);
    await settle();
    expect(calls()).toBe(1);
    clock.advance(1);
    await settle();
    await settle();
    expect(calls()).toBe(2);
  });

  it('lets a command that waits for its own write run the projectors without waiting', async () => {
    const { daemon, clock, calls, append } = await startedDaemon(1_000);
    clock.advance(1);
    append();
    expect(clock.waiting()).toBe(1);
    await expect(daemon.waitFor({ commit: 1n, prepare: 1n })).resolves.toBe(true);
    expect(calls()).toBe(2);
    clock.advance(1_000);
  });
});

describe('the job worker woken by the reactions', () => {
  function reactionsProjector(onRun: () => void) {
    const projector = {
      name: 'reactions',
      position: null,
      start: async () => undefined,
      refreshPosition: () => undefined,
      hasReached: () => true,
      storedPosition: async () => null,
      catchUp: jest.fn(async () => (onRun(), 3)),
    };
    return projector as unknown as Projector;
  }

  const idleStore: Pick<EventStore, 'readAll' | 'subscribe'> = {
    readAll: () => Promise.resolve([]),
    subscribe: () => () => undefined,
  };

  it('is woken after a run whose reactions scheduled jobs, and not after one that applied events but scheduled none', async () => {
    let schedules = false;
    let daemon: ProjectionDaemon | null = null;
    const projector = reactionsProjector(() => {
      if (schedules) daemon?.noteJobsScheduled();
    });
    daemon = new ProjectionDaemon([], [projector], idleStore, NO_LAG, 0, (error) => {
      throw error;
    });
    const wakes = jest.fn();
    daemon.onJobsScheduled(wakes);

    await daemon.catchUpAll();
    expect(wakes).not.toHaveBeenCalled();

    schedules = true;
    await daemon.catchUpAll();
    expect(wakes).toHaveBeenCalledTimes(1);

    schedules = false;
    await daemon.catchUpAll();
    expect(wakes).toHaveBeenCalledTimes(1);
  });
});
