import { OperationalCounts, ServiceMonitor } from '../../application/ports/service-monitor.port';
import { serviceMetricsText } from '../metrics/metrics-text';
import { ProjectionDaemon } from '../projections/projection-daemon';
import { SqlDatabase } from '../sql/sql-database';

export class SqlServiceMonitor implements ServiceMonitor {
  constructor(
    private readonly db: SqlDatabase,
    private readonly daemon: ProjectionDaemon,
  ) {}

  async pingDatabase(): Promise<void> {
    await this.db.query('SELECT 1');
  }

  readModelLagSeconds(now: Date): Promise<number> {
    return this.daemon.readModelLagSeconds(now);
  }

  projectionLagSeconds(now: Date): Promise<{ name: string; seconds: number }[]> {
    return this.daemon.lagSeconds(now);
  }

  projectionLag(): Promise<{ name: string; events: number }[]> {
    return this.daemon.lag();
  }

  async operationalCounts(): Promise<OperationalCounts> {
    return {
      heldOrders: await this.count('SELECT count(*)::text AS n FROM rm_orders WHERE held_at IS NOT NULL'),
      answersAfterHold: await this.count('SELECT count(*)::text AS n FROM rm_orders WHERE late_answer IS NOT NULL'),
      answersAfterOutcome: {
        contradicting: await this.count(
          `SELECT count(*)::text AS n FROM rm_orders WHERE answer_after_outcome ->> 'contradicts' = 'true'`,
        ),
        notContradicting: await this.count(
          `SELECT count(*)::text AS n FROM rm_orders WHERE answer_after_outcome ->> 'contradicts' = 'false'`,
        ),
      },
      jobsDue: await this.count('SELECT count(*)::text AS n FROM jobs WHERE done_at IS NULL AND due_at <= now()'),
      jobsRetrying: await this.count(
        'SELECT count(*)::text AS n FROM jobs WHERE done_at IS NULL AND last_error IS NOT NULL',
      ),
      webhookDeliveriesFailed: await this.count(
        `SELECT count(*)::text AS n FROM webhook_deliveries WHERE state = 'FAILED'`,
      ),
    };
  }

  metricsText(): Promise<string> {
    return serviceMetricsText();
  }

  private async count(sql: string): Promise<number> {
    return Number((await this.db.query<{ n: string }>(sql))[0].n);
  }
}
