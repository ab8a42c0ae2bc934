import { RecordedEvent } from '../../application/ports/event-store.port';
import { Job, StoredJob, storedJobOf } from '../../application/ports/job-queue.port';
import { Reaction } from '../../application/ports/reaction.port';
import { LogEvent } from '../../domain/log-events';
import { SqlProjection } from '../projections/sql-projection';
import { SqlExecutor } from '../sql/sql-database';
import { JOBS_SCHEMA } from './jobs.schema';
import { insertJob, insertJobs } from './sql-job-queue';
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
  return {
    name: 'reactions',
    schemaVersion: 1,
    schema: JOBS_SCHEMA,
    handles,
    async apply(event: RecordedEvent, tx: SqlExecutor): Promise<void> {
      for (const job of await stillWanted(candidatesOf([event]), tx)) await insertJob(tx, job);
    },
    async applyBatch(events: readonly RecordedEvent[], tx: SqlExecutor): Promise<void> {
      await insertJobs(tx, await stillWanted(candidatesOf(events), tx));
    },
  };
}

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
