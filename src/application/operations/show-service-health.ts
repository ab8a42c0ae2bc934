import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../ports/clock.port';
import { PROVIDER_DIRECTORY, ProviderDirectory } from '../ports/provider-gateway.port';
import { LiveProviderStatus, PROVIDER_STATUS, ProviderStatusReader } from '../ports/provider-status.port';
import { SERVICE_MONITOR, ServiceMonitor } from '../ports/service-monitor.port';
import { BREAKER_POLICY, BreakerView, ProviderBreakers } from '../routing/provider-breakers';

export interface ProviderHealth {
  provider: string;
  /** Null when no balance could be read yet (or the provider has no balance endpoint). */
  float: {
    balance: string;
    currency: string | null;
    low_float_threshold: string | null;
    /** Below the threshold; null when no threshold is set. */
    low: boolean | null;
    read_at: string | null;
  } | null;
  float_error: string | null;
  /** False where the provider publishes no balance endpoint: there is no float to show. */
  balance_endpoint: boolean;
  breaker: Omit<BreakerView, 'provider'> | null;
}

export interface ServiceHealth {
  providers: ProviderHealth[];
  breaker_policy: { threshold: number; cool_down_seconds: number };
  /** Each projector's lag in seconds (the age of the oldest event it has not applied; 0 when caught up). */
  projections: { name: string; lag_seconds: number }[];
  projection_lag_seconds: number;
  rows_read: number;
}

export class ShowServiceHealth extends Query<ServiceHealth> {}

/** The overview's health panels: each live provider's float (re-read past a minute) and breaker, and the projectors' lag in seconds. */
@QueryHandler(ShowServiceHealth)
export class ShowServiceHealthHandler implements IQueryHandler<ShowServiceHealth, ServiceHealth> {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(PROVIDER_STATUS) private readonly providerStatus: ProviderStatusReader,
    @Inject(PROVIDER_DIRECTORY) private readonly directory: ProviderDirectory,
    @Inject(SERVICE_MONITOR) private readonly monitor: ServiceMonitor,
    private readonly breakers: ProviderBreakers,
  ) {}

  async execute(): Promise<ServiceHealth> {
    const [statuses, lags] = await Promise.all([
      this.providerStatuses(),
      this.monitor.projectionLagSeconds(this.clock.now()),
    ]);
    return {
      providers: this.providers(statuses),
      breaker_policy: { threshold: BREAKER_POLICY.threshold, cool_down_seconds: BREAKER_POLICY.coolDownMs / 1000 },
      projections: lags.map((lag) => ({ name: lag.name, lag_seconds: Math.round(lag.seconds * 10) / 10 })),
      projection_lag_seconds: Math.round(Math.max(0, ...lags.map((lag) => lag.seconds)) * 10) / 10,
      rows_read: lags.length,
    };
  }

  private async providerStatuses(): Promise<LiveProviderStatus[]> {
    if (this.providerStatus.all) return this.providerStatus.all(false);
    const status = await this.providerStatus.live(false);
    return status ? [status] : [];
  }

  private providers(statuses: readonly LiveProviderStatus[]): ProviderHealth[] {
    const names = [...new Set([...this.directory.liveNames(), ...statuses.map((status) => status.provider)])];
    return names.map((name) => {
      const status = statuses.find((candidate) => candidate.provider === name) ?? null;
      const breaker = this.directory.liveNames().includes(name) ? this.breakers.view(name) : null;
      return {
        provider: name,
        float:
          status?.balance == null
            ? null
            : {
                balance: status.balance,
                currency: status.currency,
                low_float_threshold: status.lowFloatThreshold,
                low: status.lowFloatThreshold === null ? null : status.low,
                read_at: status.readAt,
              },
        float_error: status?.error ?? null,
        balance_endpoint: status?.balanceEndpoint ?? true,
        breaker: breaker
          ? { state: breaker.state, unknown_in_a_row: breaker.unknown_in_a_row, next_probe_at: breaker.next_probe_at }
          : null,
      };
    });
  }
}
