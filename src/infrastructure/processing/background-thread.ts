import { Worker } from 'node:worker_threads';
import { MetricObjectWithValues, MetricValue } from 'prom-client';
import { BackgroundElsewhere } from './background-processing';

type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];

export type ToBackground = 'appended' | 'stop' | { metricsRequest: number };
export type FromBackground = 'ready' | 'stopped' | { metricsAnswer: number; metrics: MetricsJson };

/** The background thread: projections, settlement, webhooks and purges; if it dies the process exits, rather than take payments it cannot settle. */
export class BackgroundThread implements BackgroundElsewhere {
  private nudgePending = false;
  private stopping: Promise<void> | null = null;
  private nextMetricsRequest = 0;

  private constructor(private readonly worker: Worker) {}

  static async start(entry: string, onDeath: (reason: string) => void): Promise<BackgroundThread> {
    const worker = new Worker(entry);
    const thread = new BackgroundThread(worker);
    await new Promise<void>((resolve, reject) => {
      const early = (code: number) =>
        reject(new Error(`the background thread exited with code ${code} while starting`));
      worker.once('error', reject);
      worker.once('exit', early);
      worker.once('message', (message: FromBackground) => {
        worker.off('error', reject);
        worker.off('exit', early);
        if (message === 'ready') resolve();
        else reject(new Error(`the background thread said ${JSON.stringify(message)} instead of ready`));
      });
    });
    worker.on('error', (error) =>
      onDeath(
        `the background thread failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      ),
    );
    worker.on('exit', (code) => {
      if (!thread.stopping) onDeath(`the background thread exited with code ${code}`);
    });
    return thread;
  }

  nudge(): void {
    if (this.nudgePending || this.stopping) return;
    this.nudgePending = true;
    setImmediate(() => {
      this.nudgePending = false;
      if (!this.stopping) this.worker.postMessage('appended' satisfies ToBackground);
    });
  }

  metrics(): Promise<MetricsJson> {
    if (this.stopping) return Promise.resolve([]);
    const id = this.nextMetricsRequest++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.worker.off('message', onMessage);
        resolve([]);
      }, 5_000);
      const onMessage = (message: FromBackground): void => {
        if (typeof message !== 'object' || message.metricsAnswer !== id) return;
        clearTimeout(timer);
        this.worker.off('message', onMessage);
        resolve(message.metrics);
      };
      this.worker.on('message', onMessage);
      this.worker.postMessage({ metricsRequest: id } satisfies ToBackground);
    });
  }

  stop(): Promise<void> {
    this.stopping ??= new Promise<void>((resolve) => {
      this.worker.once('exit', () => resolve());
      this.worker.postMessage('stop' satisfies ToBackground);
    });
    return this.stopping;
  }
}
