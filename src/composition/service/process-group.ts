import cluster, { Worker } from 'node:cluster';
import { serveClusterMetrics } from '../../infrastructure/metrics/metrics-text';

// HTTP_PROCESSES > 1: this process forks that many whole service instances sharing its port and only
// looks after them; like replicas behind a balancer, they coordinate through the database only.
export class ProcessGroup {
  private readonly ready = new Set<number>();
  // Kept here, not read from cluster.workers: a worker whose 'exit' comes before its channel's 'disconnect'
  // (a busy machine) is still listed there at its 'exit', and the group would wait for it forever.
  private readonly alive = new Map<number, Worker>();
  private stopping = false;

  private constructor(
    private readonly size: number,
    private readonly afterLastExit: () => Promise<void>,
  ) {}

  // Resolves once every worker listens; a worker that exits first stops the group.
  // `afterLastExit` runs once every worker has exited on a stop (the embedded server stops there).
  static start(size: number, afterLastExit: () => Promise<void> = async () => undefined): Promise<ProcessGroup> {
    const group = new ProcessGroup(size, afterLastExit);
    return group.run();
  }

  private run(): Promise<ProcessGroup> {
    return new Promise((resolve, reject) => {
      cluster.on('listening', (worker) => {
        this.ready.add(worker.id);
        if (this.ready.size === this.size) resolve(this);
      });
      cluster.on('exit', (worker, code, signal) => this.onExit(worker, code, signal, reject));
      // A worker's channel failing (it is dying) must not end the primary: 'exit' follows and replaces it.
      cluster.on('fork', (worker) => {
        this.alive.set(worker.id, worker);
        worker.on('error', (error: Error) =>
          console.error(`service process ${worker.process.pid}: ${error.message}; waiting for it to exit`),
        );
      });
      serveClusterMetrics();
      for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => this.stop(signal));
      for (let i = 0; i < this.size; i++) cluster.fork();
    });
  }

  private onExit(worker: Worker, code: number | null, signal: string | null, failStart: (error: Error) => void): void {
    const listened = this.ready.delete(worker.id);
    this.alive.delete(worker.id);
    if (this.stopping) {
      if (this.alive.size === 0) this.exit();
      return;
    }
    const how = signal ? `signal ${signal}` : `code ${code}`;
    if (!listened) {
      // A worker that cannot start (configuration, database down) would fail again at once.
      process.exitCode = 1;
      failStart(new Error(`a service process exited with ${how} before it listened`));
      this.stop('SIGTERM');
      return;
    }
    console.error(`service process ${worker.process.pid} exited with ${how}; starting another`);
    cluster.fork();
  }

  private stop(signal: NodeJS.Signals): void {
    if (this.stopping) return;
    this.stopping = true;
    if (this.alive.size === 0) this.exit();
    for (const worker of this.alive.values()) worker.process.kill(signal);
  }

  private exit(): void {
    this.afterLastExit().then(
      () => process.exit(process.exitCode ?? 0),
      () => process.exit(1),
    );
  }
}
