import { RecordedEvent } from '../../application/ports/event-store.port';
import { Reaction } from '../../application/process-managers/reaction';
import { SqlProjection } from '../projections/sql-projection';
import { SqlExecutor } from '../sql/sql-database';
import { JOBS_SCHEMA } from './jobs.schema';
import { insertJob, insertJobs } from './sql-job-queue';

/**
 * The process managers' trigger: schedules the jobs that events call for, in the
 * same transaction that moves the checkpoint (a transactional outbox). Job ids are
 * deterministic, so a replay schedules nothing new.
 */
export function reactionsProjection(reactions: readonly Reaction[]): SqlProjection {
  const handles = new Set(reactions.flatMap((reaction) => [...reaction.handles]));
  return {
    name: 'reactions',
    schema: JOBS_SCHEMA,
    handles,
    async apply(event: RecordedEvent, tx: SqlExecutor): Promise<void> {
      for (const reaction of reactions) {
        if (!reaction.handles.has(event.type)) continue;
        for (const job of reaction.jobsFor(event)) await insertJob(tx, job);
      }
    },
    /** Every job the batch calls for, in one insert (the first schedule of a job id wins either way). */
    async applyBatch(events: readonly RecordedEvent[], tx: SqlExecutor): Promise<void> {
      const jobs = events.flatMap((event) => reactions.filter((reaction) => reaction.handles.has(event.type)).flatMap((reaction) => reaction.jobsFor(event)));
      await insertJobs(tx, jobs);
    },
  };
}
