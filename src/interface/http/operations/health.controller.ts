import { BeforeApplicationShutdown, Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { EVENT_LOG_DIAGNOSTICS, EventLogDiagnostics } from '../../../application/ports/event-log-diagnostics.port';
import { RATE_LIMITER, RateLimiter } from '../../../application/ports/rate-limiter.port';
import { SERVICE_MONITOR, ServiceMonitor } from '../../../application/ports/service-monitor.port';
import { ServiceError } from '../../../application/shared/service-error';
import { CheckResult, NotReady, outcomeOf } from './readiness-check';

/** Past this, the read models answer too far behind the log for this instance to take traffic. */
const READY_MAX_READ_MODEL_LAG_SECONDS = 30;
type Checks = Record<string, () => Promise<void>>;

/** @nestjs/terminus's answer shape: the checks that are up, those that are down, and all of them. */
interface ProbeAnswer<Result> {
  status: 'ok' | 'error';
  info: Record<string, Result>;
  error: Record<string, Result>;
  details: Record<string, Result>;
}

// Probes in @nestjs/terminus's answer shape (decision 0095): `/health/live` the process answers; `/health/ready`
// the stores (and Redis when it counts rate limits) answer, read models at most 30 s behind, not draining;
// 503 otherwise. `/health`: 200 `{"status":"ok"}` while the database answers.
@ApiExcludeController()
@Controller('health')
export class HealthController implements BeforeApplicationShutdown {
  private draining = false;

  constructor(
    @Inject(SERVICE_MONITOR) private readonly monitor: ServiceMonitor,
    @Inject(EVENT_LOG_DIAGNOSTICS) private readonly eventLog: EventLogDiagnostics,
    @Inject(RATE_LIMITER) private readonly rateLimiter: RateLimiter,
  ) {}

  @Get()
  async health(): Promise<Record<string, string>> {
    try {
      await this.monitor.pingDatabase();
    } catch {
      throw new ServiceError('service_unavailable', 'the database does not answer');
    }
    return { status: 'ok' };
  }

  @Get('live')
  live(): ProbeAnswer<{ status: 'up'; pid: number }> {
    return {
      status: 'ok',
      info: { process: { status: 'up', pid: process.pid } },
      error: {},
      details: { process: { status: 'up', pid: process.pid } },
    };
  }

  @Get('ready')
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<ProbeAnswer<CheckResult>> {
    const checks: Checks = {
      shutdown: async () => {
        if (this.draining) throw new NotReady('draining: the service is shutting down');
      },
      event_store: async () => {
        await this.eventLog.headPosition();
      },
      database: async () => {
        await this.monitor.pingDatabase();
      },
      read_models: async () => {
        const lag = await this.monitor.readModelLagSeconds(new Date());
        if (lag > READY_MAX_READ_MODEL_LAG_SECONDS)
          throw new NotReady(
            `the read models are ${Math.round(lag)} s behind the event log (limit ${READY_MAX_READ_MODEL_LAG_SECONDS} s)`,
          );
      },
    };
    const check = this.rateLimiter.check?.bind(this.rateLimiter);
    if (check) checks.redis = check;
    const details = Object.fromEntries(
      await Promise.all(Object.entries(checks).map(async ([name, run]) => [name, await outcomeOf(name, run)] as const)),
    );
    const up = Object.fromEntries(Object.entries(details).filter(([, result]) => result.status === 'up'));
    const down = Object.fromEntries(Object.entries(details).filter(([, result]) => result.status === 'down'));
    const ok = Object.keys(down).length === 0;
    reply.status(ok ? 200 : 503);
    return { status: ok ? 'ok' : 'error', info: up, error: down, details };
  }

  /** From the first shutdown hook on, the instance reports not ready while it finishes its work. */
  beforeApplicationShutdown(): void {
    this.draining = true;
  }
}
