import { Job, JobQueue } from '../../application/ports/job-queue.port';
import { SqlExecutor } from '../sql/sql-database';

/** Scheduling is idempotent: a job id that exists already keeps its first schedule. */
export async function insertJob(db: SqlExecutor, job: Job): Promise<void> {
  await db.query(
    `INSERT INTO jobs (job_id, kind, payload, due_at) VALUES ($1, $2, $3::jsonb, $4) ON CONFLICT (job_id) DO NOTHING`,
    [job.id, job.kind, JSON.stringify(job.payload), job.dueAt.toISOString()],
  );
}

export class SqlJobQueue implements JobQueue {
  constructor(private readonly db: SqlExecutor) {}

  schedule(job: Job): Promise<void> {
    return insertJob(this.db, job);
  }
}
