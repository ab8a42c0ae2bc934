import { Controller, Get, Header, Inject, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { EVENT_LOG_DIAGNOSTICS, EventLogDiagnostics } from '../../../application/ports/event-log-diagnostics.port';
import { AdminTokenGuard } from '../admin/admin-token.guard';
import { RequiresPermission } from '../admin/permission.decorator';
import {
  LiveProviderStatus,
  PROVIDER_STATUS,
  ProviderStatusReader,
} from '../../../application/ports/provider-status.port';
import { QueryBus } from '@nestjs/cqrs';
import { ShowProviderBreakers } from '../../../application/routing/show-provider-breakers';
import { SERVICE_MONITOR, ServiceMonitor } from '../../../application/ports/service-monitor.port';

interface Gauge {
  name: string;
  help: string;
  /** A number, or an exact decimal text (amounts). */
  value: number | string;
  labels?: Record<string, string>;
}

/** Prometheus text format for operators: projection lag, held orders, due jobs, failed webhook deliveries, memory. */
@ApiExcludeController()
@Controller('metrics')
@UseGuards(AdminTokenGuard)
export class MetricsController {
  constructor(
    @Inject(SERVICE_MONITOR) private readonly monitor: ServiceMonitor,
    @Inject(EVENT_LOG_DIAGNOSTICS) private readonly eventLog: EventLogDiagnostics,
    @Inject(PROVIDER_STATUS) private readonly providers: ProviderStatusReader,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @RequiresPermission('read')
  @Header('content-type', 'text/plain; version=0.0.4')
  async metrics(): Promise<string> {
    const counts = await this.monitor.operationalCounts();
    const gauges: Gauge[] = [
      { name: 'held_orders', help: 'Orders held (DISPUTED) for manual resolution', value: counts.heldOrders },
      {
        name: 'provider_answers_after_hold',
        help: 'Orders whose provider answered after they were held (evidence for the operator)',
        value: counts.answersAfterHold,
      },
      {
        name: 'provider_answers_after_outcome',
        help: 'Orders whose provider answered after their outcome: contradicting it (finance must act), or after a manual resolution',
        value: counts.answersAfterOutcome.contradicting,
        labels: { contradicts: 'true' },
      },
      {
        name: 'provider_answers_after_outcome',
        help: 'Orders whose provider answered after their outcome: contradicting it (finance must act), or after a manual resolution',
        value: counts.answersAfterOutcome.notContradicting,
        labels: { contradicts: 'false' },
      },
      { name: 'jobs_due', help: 'Durable jobs due and not yet done', value: counts.jobsDue },
      {
        name: 'jobs_retrying',
        help: 'Durable jobs that failed at least once and wait for a retry',
        value: counts.jobsRetrying,
      },
      {
        name: 'webhook_deliveries_failed',
        help: 'Webhook deliveries that exhausted their retries',
        value: counts.webhookDeliveriesFailed,
      },
      {
        name: 'events_not_yet_readable',
        help: 'Committed events behind an open transaction',
        value: await this.eventLog.countCommittedNotYetReadable(),
      },
    ];
    const memory = process.memoryUsage();
    gauges.push(
      // With HTTP_PROCESSES > 1 each scrape is answered by one of the processes; this says which.
      { name: 'process_id', help: 'Operating-system id of the process that answered this scrape', value: process.pid },
      {
        name: 'process_resident_memory_bytes',
        help: 'Resident memory of this process (all its threads)',
        value: memory.rss,
      },
      {
        name: 'heap_used_bytes',
        help: 'JavaScript heap in use on the thread that serves HTTP',
        value: memory.heapUsed,
      },
      {
        name: 'external_memory_bytes',
        help: 'Memory held outside the JavaScript heap (buffers) by that thread',
        value: memory.external,
      },
    );
    for (const lag of await this.monitor.projectionLag()) {
      gauges.push({
        name: 'projection_lag_events',
        help: 'Events not yet applied by a projector',
        value: lag.events,
        labels: { projector: lag.name },
      });
    }
    gauges.push(...(await this.floatGauges()));
    for (const breaker of await this.queries.execute(new ShowProviderBreakers())) {
      gauges.push({
        name: 'provider_breaker_open',
        help: "Whether the live provider's circuit breaker in this process stops sending (1: open or probing) or not (0)",
        value: breaker.state === 'closed' ? 0 : 1,
        labels: { provider: breaker.provider },
      });
    }
    // The counters, histograms and Node metrics of prom-client, summed over the service's threads and processes.
    return render(gauges) + (await this.monitor.metricsText());
  }

  /** Our float at each live provider that has a balance endpoint, from its last reading (read again when older than a minute). */
  private async floatGauges(): Promise<Gauge[]> {
    const all = this.providers.all ? await this.providers.all(false) : [await this.providers.live(false)];
    return all.flatMap((status) => (status && status.balanceEndpoint !== false ? floatGaugesOf(status) : []));
  }
}

function floatGaugesOf(status: LiveProviderStatus): Gauge[] {
  const labels = { provider: status.provider, currency: status.currency ?? '' };
  const gauges: Gauge[] = [
    {
      name: 'provider_float_readable',
      help: 'Whether the float at the live provider could be read (1) or not (0)',
      value: status.error ? 0 : 1,
      labels: { provider: status.provider },
    },
  ];
  if (status.balance !== null) {
    gauges.push(
      {
        name: 'provider_float',
        help: "Our balance at the live provider, in the provider account's currency",
        value: status.balance,
        labels,
      },
      {
        name: 'provider_float_low',
        help: 'Whether the float is below RELOADLY_LOW_FLOAT_THRESHOLD (1) or not (0)',
        value: status.low ? 1 : 0,
        labels,
      },
    );
  }
  return gauges;
}

function render(gauges: Gauge[]): string {
  const lines: string[] = [];
  const described = new Set<string>();
  for (const gauge of gauges) {
    const name = `partner_service_${gauge.name}`;
    if (!described.has(name)) {
      lines.push(`# HELP ${name} ${gauge.help}`, `# TYPE ${name} gauge`);
      described.add(name);
    }
    const labels = gauge.labels
      ? `{${Object.entries(gauge.labels)
          .map(([key, value]) => `${key}="${value}"`)
          .join(',')}}`
      : '';
    lines.push(`${name}${labels} ${gauge.value}`);
  }
  return `${lines.join('\n')}\n`;
}
