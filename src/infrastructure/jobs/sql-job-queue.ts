import { Job, JobQueue } from '../../application/ports/job-queue.port';
import { SqlExecutor } from '../sql/sql-database';

/** Scheduling is idempotent: a job id that exists already keeps its first schedule. */
export async function insertJob(db: SqlExecutor, job: Job): Promise<void> {
  await db.query(
    `INSERT INTO jobs (job_id, kind, payload, due_at) VALUES ($1, $2, $3::jsonb, $4) ON CONFLICT (job_id) DO NOTHING`,
    [job.id, job.kind, JSON.stringify(job.payload), job.dueAt.toISOString()],
  );
}

/** Schedules many jobs in one statement; as with one at a time, the first schedule of a job id wins. */
export async function insertJobs(db: SqlExecutor, jobs: readonly Job[]): Promise<void> {
  if (jobs.length === 0) return;
  if (jobs.length === 1) return insertJob(db, jobs[0]);
  await db.query(
    `INSERT INTO jobs (job_id, kind, payload, due_at)
     SELECT * FROM unnest($1::text[], $2::text[], $3::jsonb[], $4::timestamptz[])
     ON CONFLICT (job_id) DO NOTHING`,
    [
      jobs.map((job) => job.id),
      jobs.map((job) => job.kind),
      jobs.map((job) => JSON.stringify(job.payload)),
      jobs.map((job) => job.dueAt.toISOString()),
    ],
  );
}

export class SqlJobQueue implements JobQueue {
  constructor(private readonly db: SqlExecutor) {}

  schedule(job: Job): Promise<void> {
    return insertJob(this.db, job);
  }
}
