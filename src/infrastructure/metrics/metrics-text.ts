import cluster, { Worker } from 'node:cluster';
import { AggregatorRegistry, MetricObjectWithValues, MetricValue, Registry } from 'prom-client';
import { serviceMetrics } from './service-metrics';

type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];

let backgroundThreadMetrics: () => Promise<MetricsJson> = async () => [];

export function readBackgroundMetricsFrom(source: () => Promise<MetricsJson>): void {
  backgroundThreadMetrics = source;
}

async function processMetricsJson(): Promise<MetricsJson> {
  const own = await serviceMetrics.registry.getMetricsAsJSON();
  const thread = await backgroundThreadMetrics().catch(() => []);
  if (thread.length === 0) return own;
  return AggregatorRegistry.aggregate([own, thread]).getMetricsAsJSON();
}

/** What a worker process answers prom-client's cluster aggregation with: the whole process, threads included. */
class WholeProcessRegistry extends Registry {
  override getMetricsAsJSON(): Promise<MetricsJson> {
    return processMetricsJson();
  }
}

const REQUEST = 'partner-service:cluster-metrics-request';
const ANSWER = 'partner-service:cluster-metrics-answer';
let nextRequest = 0;

/** The Prometheus text of the whole service on this host: with HTTP_PROCESSES > 1 the primary sums every worker's metrics. */
export async function serviceMetricsText(): Promise<string> {
  if (!cluster.isWorker || !process.send) return AggregatorRegistry.aggregate([await processMetricsJson()]).metrics();
  const id = nextRequest++;
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      process.off('message', onMessage);
      reject(new Error('the primary process did not gather the metrics of the service processes in time'));
    }, 10_000);
    const onMessage = (message: unknown): void => {
      if (!isAnswer(message) || message.id !== id) return;
      clearTimeout(timer);
      process.off('message', onMessage);
      if (message.error !== null) reject(new Error(message.error));
      else resolve(message.text);
    };
    process.on('message', onMessage);
    // A send that fails (the primary is gone) is reported to the callback, not thrown later as an 'error' event.
    process.send?.({ type: REQUEST, id }, undefined, undefined, (error: Error | null) => {
      if (!error) return;
      clearTimeout(timer);
      process.off('message', onMessage);
      reject(error);
    });
  });
}

export function answerClusterMetricsRequests(): void {
  if (!cluster.isWorker) return;
  AggregatorRegistry.setRegistries([new WholeProcessRegistry()]);
  // Constructing one installs prom-client's listener for the primary's requests (once per process).
  new AggregatorRegistry();
}

/** prom-client's own messages between the primary and a worker (its worker side answers them). */
const WORKER_REQUEST = 'prom-client:getMetricsReq';
const WORKER_ANSWER = 'prom-client:getMetricsRes';
/** A worker that has not answered by then (it died, it is starting) is left out of this scrape. */
const WORKER_ANSWER_MS = 1_000;
let nextWorkerRequest = 0;

/** In the primary: answers a worker's scrape with the sum over all workers; one that does not answer is left out, not the scrape. */
export function serveClusterMetrics(): void {
  cluster.on('message', (worker, message: unknown) => {
    if (!isRequest(message)) return;
    // The asking worker may have died meanwhile: its answer is dropped (sendIgnoringLoss).
    gatherWorkers().then(
      (text) => sendIgnoringLoss(worker, { type: ANSWER, id: message.id, text, error: null }),
      (error: unknown) =>
        sendIgnoringLoss(worker, {
          type: ANSWER,
          id: message.id,
          text: '',
          error: error instanceof Error ? error.message : String(error),
        }),
    );
  });
}

async function gatherWorkers(): Promise<string> {
  const workers = Object.values(cluster.workers ?? {}).filter(
    (worker): worker is Worker => worker !== undefined && worker.isConnected() && !worker.isDead(),
  );
  const answers = await Promise.all(workers.map((worker) => askWorker(worker)));
  return AggregatorRegistry.aggregate(answers.flat()).metrics();
}

function askWorker(worker: Worker): Promise<MetricsJson[]> {
  const requestId = `partner-service-${nextWorkerRequest++}`;
  return new Promise((resolve) => {
    const done = (metrics: MetricsJson[]): void => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      resolve(metrics);
    };
    const timer = setTimeout(() => done([]), WORKER_ANSWER_MS);
    const onMessage = (message: { type?: unknown; requestId?: unknown; metrics?: MetricsJson[] }): void => {
      if (message?.type === WORKER_ANSWER && message.requestId === requestId) done(message.metrics ?? []);
    };
    worker.on('message', onMessage);
    try {
      worker.send({ type: WORKER_REQUEST, requestId }, undefined, (error: Error | null) => {
        if (error) done([]);
      });
    } catch {
      done([]);
    }
  });
}

/** Sends to a worker that may be dying: with a callback, a failed send (EPIPE) cannot become an 'error' event that ends the primary. */
function sendIgnoringLoss(worker: Worker, message: object): void {
  try {
    worker.send(message, undefined, () => undefined);
  } catch {
    // The channel is closed already: the worker is gone, and so is its need for an answer.
  }
}

function isRequest(message: unknown): message is { type: string; id: number } {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === REQUEST;
}

function isAnswer(message: unknown): message is { type: string; id: number; text: string; error: string | null } {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === ANSWER;
}
