import { SqlExecutor } from '../sql/sql-database';
import { SchemaScript } from '../sql/migrations';

const DAY_MS = 24 * 3600_000;
/** Rows per statement: each batch is its own short transaction, so no lock is held for long and nothing waits on the purge. */
const BATCH = 1_000;

interface RetentionPolicy {
  jobDays: number;
  webhookAttemptDays: number;
  webhookDeliveryDays: number;
}

export interface Purged {
  jobs: number;
  webhookAttempts: number;
  webhookDeliveries: number;
  keyRefusals: number;
}

/** Restricted keys' refusals are shown for the last 24 hours; a day more is kept. */
const KEY_REFUSAL_DAYS = 2;

export const RETENTION_SCHEMA: SchemaScript = {
  name: 'retention',
  sql: `
CREATE INDEX IF NOT EXISTS jobs_done ON jobs (done_at) WHERE done_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS webhook_deliveries_finished ON webhook_deliveries (updated_at) WHERE state IN ('SUCCEEDED', 'FAILED');
`,
};

/**
 * Deletes, by age, finished jobs, finished deliveries' attempts and later the deliveries, and old key refusals;
 * unfinished work and the event log are never purged. A purged job id may be scheduled again, but handlers write under
 * deterministic ids, so a second run records nothing new.
 */
export class SqlRetention {
  constructor(
    private readonly db: SqlExecutor,
    private readonly policy: RetentionPolicy,
  ) {}

  async purge(now: Date): Promise<Purged> {
    const before = (days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();
    const webhookDeliveries = await this.inBatches(
      // The attempts of a delivery go with it, in the same statement (the foreign key is checked at its end).
      `WITH doomed AS (
         SELECT delivery_id FROM webhook_deliveries
          WHERE state IN ('SUCCEEDED', 'FAILED') AND updated_at < $1
          LIMIT $2 FOR UPDATE SKIP LOCKED
       ), attempts AS (
         DELETE FROM webhook_attempts a USING doomed d WHERE a.delivery_id = d.delivery_id
       )
       DELETE FROM webhook_deliveries w USING doomed d WHERE w.delivery_id = d.delivery_id RETURNING w.delivery_id`,
      before(this.policy.webhookDeliveryDays),
    );
    const webhookAttempts = await this.inBatches(
      `DELETE FROM webhook_attempts WHERE ctid IN (
         SELECT a.ctid FROM webhook_attempts a JOIN webhook_deliveries d ON d.delivery_id = a.delivery_id
          WHERE d.state IN ('SUCCEEDED', 'FAILED') AND a.attempted_at < $1
          LIMIT $2
       ) RETURNING delivery_id`,
      before(this.policy.webhookAttemptDays),
    );
    const jobs = await this.inBatches(
      `DELETE FROM jobs WHERE job_id IN (
         SELECT job_id FROM jobs WHERE done_at IS NOT NULL AND done_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED
       ) RETURNING job_id`,
      before(this.policy.jobDays),
    );
    const keyRefusals = await this.inBatches(
      `DELETE FROM key_refusals WHERE ctid IN (
         SELECT ctid FROM key_refusals WHERE refused_at < $1 LIMIT $2
       ) RETURNING key_id`,
      before(KEY_REFUSAL_DAYS),
    );
    return { jobs, webhookAttempts, webhookDeliveries, keyRefusals };
  }

  private async inBatches(sql: string, cutoff: string): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = (await this.db.query(sql, [cutoff, BATCH])).length;
      total += deleted;
      if (deleted < BATCH) return total;
    }
  }
}
