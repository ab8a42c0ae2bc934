import { EventStore } from '../../../src/application/ports/event-store.port';
import { ProjectionDaemon } from '../../../src/infrastructure/projections/projection-daemon';
import { Projector } from '../../../src/infrastructure/projections/projector';

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

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('projection daemon under a steady stream of appends', () => {
  it('runs one catch-up at a time and one more after it, however many appends arrive meanwhile', async () => {
    let appended: () => void = () => undefined;
    const store = {
      onAppended: (listener: () => void) => ((appended = listener), () => undefined),
    } as unknown as EventStore;
    const readModels = slowProjector('read-models');
    const daemon = new ProjectionDaemon([readModels.projector], [], store, 0, (error) => {
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
