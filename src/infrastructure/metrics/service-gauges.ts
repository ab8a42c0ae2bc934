import { ProjectionDaemon } from '../projections/projection-daemon';
import { SqlReconciliationRuns } from '../reconciliation/sql-reconciliation-runs';
import { SqlExecutor } from '../sql/sql-database';
import { serviceMetrics } from './service-metrics';

export function registerServiceGauges(daemon: ProjectionDaemon, db: SqlExecutor): void {
  serviceMetrics.gauge({
    name: 'partner_service_projection_lag_seconds',
    help: 'Age of the oldest event a projector has not applied yet (0 when caught up)',
    labelNames: ['projector'],
    collect: async (gauge) => {
      gauge.reset();
      for (const lag of await daemon.lagSeconds(new Date())) gauge.set({ projector: lag.name }, lag.seconds);
    },
  });
  serviceMetrics.gauge({
    name: 'partner_service_job_backlog',
    help: 'Durable jobs not done: due now, or scheduled for later',
    labelNames: ['state'],
    collect: async (gauge) => {
      const [row] = await db.query<{ due: number; scheduled: number }>(
        `SELECT count(*) FILTER (WHERE due_at <= now())::int AS due, count(*) FILTER (WHERE due_at > now())::int AS scheduled FROM jobs WHERE done_at IS NULL`,
      );
      gauge.set({ state: 'due' }, row.due);
      gauge.set({ state: 'scheduled' }, row.scheduled);
    },
  });
  const runs = new SqlReconciliationRuns(db);
  serviceMetrics.gauge({
    name: 'partner_service_reconciliation_last_success_timestamp_seconds',
    help: "When each provider's daily reconciliation run (RECONCILIATION_AT) last succeeded, as Unix time",
    labelNames: ['provider'],
    collect: async (gauge) => {
      gauge.reset();
      for (const { provider, at } of await runs.lastScheduledSuccess()) gauge.set({ provider }, at.getTime() / 1000);
    },
  });
}
