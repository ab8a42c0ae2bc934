import {
  MismatchKind,
  RecordedReconciliationRun,
  ReconciliationRun,
  ReconciliationRuns,
  ReconciliationTrigger,
  RunMismatch,
} from '../../application/ports/reconciliation-runs.port';
import { FindingKind } from '../../domain/reconciliation/reconciliation';
import { SchemaScript } from '../sql/migrations';
import { SqlExecutor } from '../sql/sql-database';

export const RECONCILIATION_RUNS_SCHEMA: SchemaScript = {
  name: 'reconciliation-runs',
  sql: `
CREATE TABLE IF NOT EXISTS reconciliation_runs (
  run_id bigserial PRIMARY KEY,
  provider text NOT NULL,
  day date NOT NULL,
  trigger text NOT NULL,
  actor text NOT NULL,
  job_id text,
  attempt integer,
  started_at timestamptz NOT NULL,
  finished_at timestamptz NOT NULL,
  error text,
  complete boolean NOT NULL,
  counts jsonb NOT NULL,
  recorded integer NOT NULL,
  open_orders integer,
  mismatches jsonb NOT NULL
);
CREATE INDEX IF NOT EXISTS reconciliation_runs_by_provider ON reconciliation_runs (provider, run_id);
`,
};

interface RunRow {
  run_id: string;
  provider: string;
  day: string;
  trigger: ReconciliationTrigger;
  actor: string;
  job_id: string | null;
  attempt: number | null;
  started_at: Date;
  finished_at: Date;
  error: string | null;
  complete: boolean;
  counts: Record<FindingKind, number>;
  recorded: number;
  open_orders: number | null;
  mismatches: { kind: MismatchKind; order_id: string; detail: string; recorded: boolean }[];
}

/** reconciliation_runs: one row per run that ended, inserted then and never changed (retention leaves the table alone). */
export class SqlReconciliationRuns implements ReconciliationRuns {
  constructor(private readonly db: SqlExecutor) {}

  async record(run: ReconciliationRun): Promise<void> {
    await this.db.query(
      `INSERT INTO reconciliation_runs
         (provider, day, trigger, actor, job_id, attempt, started_at, finished_at, error, complete, counts, recorded,
          open_orders, mismatches)
       VALUES ($1, $2::date, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, $12, $13, $14::jsonb)`,
      [
        run.provider,
        run.date,
        run.trigger,
        run.actor,
        run.jobId,
        run.attempt,
        run.startedAt.toISOString(),
        run.finishedAt.toISOString(),
        run.error,
        run.complete,
        JSON.stringify(run.counts),
        run.recorded,
        run.openOrders,
        JSON.stringify(run.mismatches.map(mismatchRow)),
      ],
    );
  }

  async recent(provider: string | null, limit: number, day?: string): Promise<RecordedReconciliationRun[]> {
    const rows = await this.db.query<RunRow>(
      `SELECT run_id::text, provider, to_char(day, 'YYYY-MM-DD') AS day, trigger, actor, job_id, attempt, started_at,
              finished_at, error, complete, counts, recorded, open_orders, mismatches
         FROM reconciliation_runs WHERE ($1::text IS NULL OR provider = $1) AND ($3::date IS NULL OR day = $3::date)
        ORDER BY run_id DESC LIMIT $2`,
      [provider, limit, day ?? null],
    );
    return rows.map((row) => ({
      runId: row.run_id,
      provider: row.provider,
      date: row.day,
      trigger: row.trigger,
      actor: row.actor,
      jobId: row.job_id,
      attempt: row.attempt,
      startedAt: new Date(row.started_at),
      finishedAt: new Date(row.finished_at),
      error: row.error,
      complete: row.complete,
      counts: row.counts,
      recorded: row.recorded,
      openOrders: row.open_orders,
      mismatches: row.mismatches.map((mismatch) => ({
        kind: mismatch.kind,
        orderId: mismatch.order_id,
        detail: mismatch.detail,
        recorded: mismatch.recorded,
      })),
    }));
  }

  async lastScheduledSuccess(): Promise<{ provider: string; at: Date }[]> {
    const rows = await this.db.query<{ provider: string; at: Date }>(
      `SELECT provider, max(finished_at) AS at FROM reconciliation_runs
        WHERE error IS NULL AND trigger = 'scheduled' GROUP BY provider`,
    );
    return rows.map((row) => ({ provider: row.provider, at: new Date(row.at) }));
  }
}

const mismatchRow = (mismatch: RunMismatch) => ({
  kind: mismatch.kind,
  order_id: mismatch.orderId,
  detail: mismatch.detail,
  recorded: mismatch.recorded,
});
