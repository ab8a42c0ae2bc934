import { Job, JobKind, JobQueue, StoredJob, storedJobOf } from '../../application/ports/job-queue.port';
import { currentOriginTraceparent, currentTraceparent } from '../../application/ports/trace-context.port';
import { SqlExecutor } from '../sql/sql-database';
import { TRACE_LINKS_KEY } from '../tracing/background-spans';

function withCurrentTraceLinks(job: StoredJob): StoredJob {
  const current = currentTraceparent();
  if (!current || TRACE_LINKS_KEY in job.payload) return job;
  const origin = currentOriginTraceparent();
  const links = origin && origin !== current ? [origin, current] : [current];
  return { ...job, payload: { ...job.payload, [TRACE_LINKS_KEY]: links } };
}

export async function insertJob(db: SqlExecutor, job: StoredJob): Promise<void> {
  await db.query(
    `INSERT INTO jobs (job_id, kind, payload, due_at) VALUES ($1, $2, $3::jsonb, $4) ON CONFLICT (job_id) DO NOTHING`,
    [job.id, job.kind, JSON.stringify(job.payload), job.dueAt.toISOString()],
  );
}

export async function insertJobs(db: SqlExecutor, jobs: readonly StoredJob[]): Promise<void> {
  if (jobs.length === 0) return;
  if (jobs.length === 1) return insertJob(db, jobs[0]);
  // One JSON document rather than an array literal per column (which the driver builds element by element).
  await db.query(
    `INSERT INTO jobs (job_id, kind, payload, due_at)
     SELECT job_id, kind, payload, due_at
       FROM jsonb_to_recordset($1::jsonb) AS j(job_id text, kind text, payload jsonb, due_at timestamptz)
     ON CONFLICT (job_id) DO NOTHING`,
    [
      JSON.stringify(
        jobs.map((job) => ({ job_id: job.id, kind: job.kind, payload: job.payload, due_at: job.dueAt.toISOString() })),
      ),
    ],
  );
}

export class SqlJobQueue implements JobQueue {
  constructor(private readonly db: SqlExecutor) {}

  schedule<Kind extends JobKind>(job: Job<Kind>): Promise<void> {
    return insertJob(this.db, withCurrentTraceLinks(storedJobOf(job)));
  }
}
