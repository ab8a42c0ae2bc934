import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Latency buckets in seconds, from a cached read to a provider at its deadline. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 60];
/** From the debit to the outcome: sandbox settlement takes 30 s, a live provider minutes, a held order hours. */
const OUTCOME_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 900, 1800, 3600, 4 * 3600, 24 * 3600];

/** One thread's counters and histograms; /metrics adds the threads up (metrics-text.ts), database gauges are taken as the largest. */
class ServiceMetrics {
  readonly registry = new Registry();
  private processMetrics = false;

  readonly httpRequests = new Counter({
    name: 'partner_service_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'partner_service_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being sent, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly orderOutcomes = new Counter({
    name: 'partner_service_order_outcomes_total',
    help: 'Orders that reached an outcome, by kind (topup, bill_payment) and outcome (success, failed)',
    labelNames: ['kind', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly debitToOutcome = new Histogram({
    name: 'partner_service_order_debit_to_outcome_seconds',
    help: 'Time from the wallet debit to the order outcome, by kind and outcome',
    labelNames: ['kind', 'outcome'] as const,
    buckets: OUTCOME_BUCKETS,
    registers: [this.registry],
  });

  readonly refunds = new Counter({
    name: 'partner_service_refunds_total',
    help: 'Wallet refunds of failed orders',
    registers: [this.registry],
  });

  readonly ordersHeld = new Counter({
    name: 'partner_service_orders_held_total',
    help: 'Orders held (DISPUTED) for an operator because they had no outcome in time',
    registers: [this.registry],
  });

  readonly webhookAttempts = new Counter({
    name: 'partner_service_webhook_attempts_total',
    help: 'Webhook delivery attempts by outcome: delivered (2xx), rejected (other status), error (no answer)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly providerCalls = new Histogram({
    name: 'partner_service_provider_call_duration_seconds',
    help: 'Provider calls by provider (sandbox, reloadly, setu), operation (submit, poll, fetch_bill) and outcome (answered, error, timeout)',
    labelNames: ['provider', 'operation', 'outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly reconciliationMismatches = new Counter({
    name: 'partner_service_reconciliation_mismatches_total',
    help: "Mismatches between a provider's report and our orders, each counted once when it is recorded as a finding, by provider and kind",
    labelNames: ['provider', 'kind'] as const,
    registers: [this.registry],
  });

  readonly reconciliationRuns = new Counter({
    name: 'partner_service_reconciliation_runs_total',
    help: 'Reconciliation runs that ended, by provider, trigger (scheduled, in_doubt, operator) and outcome (succeeded, failed)',
    labelNames: ['provider', 'trigger', 'outcome'] as const,
    registers: [this.registry],
  });

  /** Statements sent to PostgreSQL, BEGIN and COMMIT included: one round trip each (the bench divides them by orders). */
  readonly sqlStatements = new Counter({
    name: 'partner_service_sql_statements_total',
    help: 'Statements sent to PostgreSQL (one round trip each, BEGIN and COMMIT included)',
    registers: [this.registry],
  });

  /** Node's own metrics (event-loop lag, GC, heap, CPU), for the thread that serves HTTP only: they are per process. */
  collectProcessMetrics(): void {
    if (this.processMetrics) return;
    this.processMetrics = true;
    collectDefaultMetrics({ register: this.registry });
  }

  /** A gauge read when scraped; the largest value across processes is shown, since each reads the same database. */
  gauge<Label extends string>(options: {
    name: string;
    help: string;
    labelNames?: readonly Label[];
    collect: (gauge: Gauge<Label>) => Promise<void>;
  }): void {
    const { collect } = options;
    // The latest service of this thread reads it (tests start several in one process).
    this.registry.removeSingleMetric(options.name);
    new Gauge<Label>({
      name: options.name,
      help: options.help,
      labelNames: options.labelNames ?? [],
      aggregator: 'max',
      registers: [this.registry],
      async collect() {
        await collect(this);
      },
    });
  }
}

export const serviceMetrics = new ServiceMetrics();
