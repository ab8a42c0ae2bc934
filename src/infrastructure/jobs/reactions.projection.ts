import { RecordedEvent } from '../../application/ports/event-store.port';
import { Job, StoredJob, storedJobOf } from '../../application/ports/job-queue.port';
import { Reaction } from '../../application/ports/reaction.port';
import { LogEvent } from '../../domain/log-events';
import { BatchScope, BatchShare, BatchWrites, SqlProjection } from '../projections/sql-projection';
import { SqlExecutor } from '../sql/sql-database';
import { JOBS_SCHEMA } from './jobs.schema';
import { insertJobs } from './sql-job-queue';
import { settingsAtScheduling } from './settings-at-scheduling';
import { TRACE_LINKS_KEY, traceLinksForEvent } from '../tracing/background-spans';

/** The reactions' outbox: jobs scheduled in the transaction that moves the checkpoint; deterministic ids make a replay a no-op. */
export function reactionsProjection(reactions: readonly Reaction[]): SqlProjection {
  const handles = new Set<LogEvent['type']>(reactions.flatMap((reaction) => [...reaction.handles]));
  const candidatesOf = (events: readonly RecordedEvent[]): Candidate[] =>
    events.flatMap((event) =>
      reactions
        .filter((reaction) => reaction.handles.has(event.type))
        .flatMap((reaction) => reaction.jobsFor(event).map((job) => ({ reaction, event, job }))),
    );
  // The settings are read before the transaction when planned (as they would be in it; every statement sees what was
  // committed before it); a batch that calls for no job (no webhook URL, no threshold crossed) then only moves the
  // checkpoint.
  const planBatch = async (
    events: readonly RecordedEvent[],
    db: SqlExecutor,
    batch: BatchScope,
  ): Promise<BatchWrites | null> => {
    const jobs = await stillWanted(candidatesOf(events), db);
    if (jobs.length === 0) return null;
    return async (tx) => {
      await insertJobs(tx, jobs);
      batch.of(JOBS_SCHEDULED, tx).count += jobs.length;
    };
  };
  const applyBatch = async (events: readonly RecordedEvent[], tx: SqlExecutor, batch: BatchScope): Promise<void> => {
    const writes = await planBatch(events, tx, batch);
    await writes?.(tx);
  };
  return {
    name: 'reactions',
    schemaVersion: 1,
    schema: JOBS_SCHEMA,
    handles,
    apply: (event, tx, batch) => applyBatch([event], tx, batch),
    applyBatch,
    planBatch,
  };
}

/** How many jobs the reactions of a batch scheduled (none: the job worker has nothing new to look for). */
const JOBS_SCHEDULED: BatchShare<{ count: number }> = { create: () => ({ count: 0 }) };

/** Whether the committed batch scheduled any job. */
export const scheduledJobs = (batch: BatchScope): boolean => (batch.made(JOBS_SCHEDULED)?.count ?? 0) > 0;

interface Candidate {
  reaction: Reaction;
  event: RecordedEvent;
  job: Job;
}

/** A job keeps the trace context of the event that called for it, so its span links back to the order's request. */
function withTraceLinks(event: RecordedEvent, job: Job): StoredJob {
  const stored = storedJobOf(job);
  const links = traceLinksForEvent(event);
  if (links.length === 0) return stored;
  return { ...stored, payload: { ...stored.payload, [TRACE_LINKS_KEY]: links } };
}

/** Each reaction's remaining candidates given the partners' settings in this transaction, in the order asked. */
async function stillWanted(candidates: readonly Candidate[], tx: SqlExecutor): Promise<StoredJob[]> {
  const settings = settingsAtScheduling(tx);
  const kept = new Map<Reaction, Map<string, Job>>();
  for (const reaction of new Set(candidates.map((candidate) => candidate.reaction))) {
    if (!reaction.stillWanted) continue;
    const asked = candidates.filter((candidate) => candidate.reaction === reaction).map((candidate) => candidate.job);
    const wanted = await reaction.stillWanted(asked, settings);
    kept.set(reaction, new Map(wanted.map((job) => [job.id, job])));
  }
  return candidates.flatMap(({ reaction, event, job }) => {
    const wanted = kept.get(reaction);
    const completed = wanted ? wanted.get(job.id) : job;
    return completed ? [withTraceLinks(event, completed)] : [];
  });
}
