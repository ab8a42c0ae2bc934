import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { CLOCK, Clock } from '../ports/clock.port';
import { PROVIDER_DIRECTORY, ProviderDirectory } from '../ports/provider-gateway.port';
import { LiveProviderStatus, PROVIDER_STATUS, ProviderStatusReader } from '../ports/provider-status.port';
import { SERVICE_MONITOR, ServiceMonitor } from '../ports/service-monitor.port';
import { BreakerView, ProviderBreakers } from '../routing/provider-breakers';

/** Our float at a provider: amounts are decimal texts in the provider account's currency. */
export interface ProviderFloat {
  balance: string;
  currency: string | null;
  lowFloatThreshold: string | null;
  /** Below the threshold; null when no threshold is set. */
  low: boolean | null;
  readAt: string | null;
}

export interface ProviderHealth {
  provider: string;
  /** Null when no balance could be read yet (or the provider has no balance endpoint). */
  float: ProviderFloat | null;
  floatError: string | null;
  /** False where the provider publishes no balance endpoint: there is no float to show. */
  balanceEndpoint: boolean;
  breaker: BreakerView | null;
}

export interface ServiceHealth {
  providers: ProviderHealth[];
  /** Each projector's lag in seconds (the age of the oldest event it has not applied; 0 when caught up). */
  projections: { name: string; lagSeconds: number }[];
  projectionLagSeconds: number;
  rowsRead: number;
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
      projections: lags.map((lag) => ({ name: lag.name, lagSeconds: Math.round(lag.seconds * 10) / 10 })),
      projectionLagSeconds: Math.round(Math.max(0, ...lags.map((lag) => lag.seconds)) * 10) / 10,
      rowsRead: lags.length,
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
      return {
        provider: name,
        float:
          status?.balance == null
            ? null
            : {
                balance: status.balance,
                currency: status.currency,
                lowFloatThreshold: status.lowFloatThreshold,
                low: status.lowFloatThreshold === null ? null : status.low,
                readAt: status.readAt,
              },
        floatError: status?.error ?? null,
        balanceEndpoint: status?.balanceEndpoint ?? true,
        breaker: this.directory.liveNames().includes(name) ? this.breakers.view(name) : null,
      };
    });
  }
}
