/** Rows that operators watch on /metrics, counted in the service's database. */
export interface OperationalCounts {
  /** Orders held (DISPUTED) for a manual resolution. */
  heldOrders: number;
  /** Orders whose provider answered after they were held. */
  answersAfterHold: number;
  /** Orders whose provider answered after their outcome, contradicting it or not. */
  answersAfterOutcome: { contradicting: number; notContradicting: number };
  /** Durable jobs due and not yet done. */
  jobsDue: number;
  /** Durable jobs that failed at least once and wait for a retry. */
  jobsRetrying: number;
  /** Webhook deliveries that exhausted their retries. */
  webhookDeliveriesFailed: number;
}

/** What the health probes and /metrics ask of the running service beyond the event store. */
export interface ServiceMonitor {
  /** Resolves when the service's database answers; rejects otherwise. */
  pingDatabase(): Promise<void>;
  /** The largest lag in seconds of the read models the API answers from. */
  readModelLagSeconds(now: Date): Promise<number>;
  /** How long the oldest event each projector has not applied yet has waited, in seconds (0 when caught up): one event read per projector. */
  projectionLagSeconds(now: Date): Promise<{ name: string; seconds: number }[]>;
  /** Events each projector has still to apply. */
  projectionLag(): Promise<{ name: string; events: number }[]>;
  operationalCounts(): Promise<OperationalCounts>;
  /** The counters, histograms and Node metrics of the whole service (every thread and process), in Prometheus text. */
  metricsText(): Promise<string>;
}

export const SERVICE_MONITOR = Symbol('ServiceMonitor');
