import cluster, { Worker } from 'node:cluster';
import { EventEmitter } from 'node:events';
import { ProcessGroup } from '../../../src/composition/service/process-group';

/*
 * The group's bookkeeping against the order in which Node's cluster module reports a worker's end. A worker
 * whose 'exit' is seen before its channel's 'disconnect' (a busy machine) is still in cluster.workers when
 * 'exit' fires; the group must end all the same. Workers here are stand-ins: no process is forked.
 */
class StandInWorker extends EventEmitter {
  readonly process = { pid: 0, kill: jest.fn<boolean, [NodeJS.Signals]>(() => true) };
  constructor(readonly id: number) {
    super();
    this.process.pid = 40_000 + id;
  }
}

describe('ProcessGroup', () => {
  const workers: StandInWorker[] = [];
  const listed = cluster.workers as Record<number, unknown>;
  let exit: jest.SpyInstance;
  let signalListeners: NodeJS.SignalsListener[];

  beforeEach(() => {
    signalListeners = process.listeners('SIGTERM');
    jest.spyOn(cluster, 'fork').mockImplementation(() => {
      const worker = new StandInWorker(workers.length + 1);
      workers.push(worker);
      listed[worker.id] = worker;
      cluster.emit('fork', worker);
      return worker as unknown as Worker;
    });
    exit = jest.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
  });

  afterEach(() => {
    for (const worker of workers) delete listed[worker.id];
    workers.length = 0;
    for (const event of ['listening', 'exit', 'fork', 'message']) cluster.removeAllListeners(event);
    for (const signal of ['SIGTERM', 'SIGINT'] as const)
      for (const listener of process.listeners(signal))
        if (!signalListeners.includes(listener)) process.removeListener(signal, listener);
    jest.restoreAllMocks();
  });

  async function startedGroup(size: number, afterLastExit: () => Promise<void>): Promise<() => void> {
    const started = ProcessGroup.start(size, afterLastExit);
    for (const worker of workers) cluster.emit('listening', worker, { address: '127.0.0.1', port: 0 });
    await started;
    const stop = process.listeners('SIGTERM').find((listener) => !signalListeners.includes(listener));
    return () => stop?.('SIGTERM');
  }

  const settled = () => new Promise((resolve) => setImmediate(resolve));

  it('ends once every worker has exited, even when each exit comes before its disconnect', async () => {
    const afterLastExit = jest.fn(async () => undefined);
    const stop = await startedGroup(2, afterLastExit);

    stop();
    expect(workers.map((worker) => worker.process.kill.mock.calls)).toEqual([[['SIGTERM']], [['SIGTERM']]]);
    // Both still listed by the cluster module at their 'exit', as when the channel closes later.
    cluster.emit('exit', workers[0], 0, null);
    await settled();
    expect(afterLastExit).not.toHaveBeenCalled();
    cluster.emit('exit', workers[1], 0, null);
    await settled();

    expect(afterLastExit).toHaveBeenCalledTimes(1);
    expect(exit).toHaveBeenCalledWith(0);
  });

  it('replaces a worker that exits while the group runs, and does not end', async () => {
    const afterLastExit = jest.fn(async () => undefined);
    await startedGroup(2, afterLastExit);
    jest.spyOn(console, 'error').mockImplementation(() => undefined);

    cluster.emit('exit', workers[0], 1, null);
    await settled();

    expect(workers).toHaveLength(3);
    expect(afterLastExit).not.toHaveBeenCalled();
    expect(exit).not.toHaveBeenCalled();
  });
});
