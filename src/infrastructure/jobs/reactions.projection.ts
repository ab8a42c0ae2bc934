import { RecordedEvent } from '../../application/ports/event-store.port';
import { StoredJob, storedJobOf } from '../../application/ports/job-queue.port';
import { LogEvent } from '../../domain/log-events';
import { Reaction } from '../../application/process-managers/reaction';
import { SqlProjection } from '../projections/sql-projection';
import { SqlExecutor } from '../sql/sql-database';
import { JOBS_SCHEMA } from './jobs.schema';
import { insertJob, insertJobs } from './sql-job-queue';
import { debitCrossesBelow } from '../../domain/wallet/low-balance';
import { TRACE_LINKS_KEY, traceLinksForEvent } from '../tracing/background-spans';

/**
 * The process managers' trigger: schedules the jobs that events call for, in the
 * same transaction that moves the checkpoint (a transactional outbox). Job ids are
 * deterministic, so a replay schedules nothing new.
 */
export function reactionsProjection(reactions: readonly Reaction[]): SqlProjection {
  const handles = new Set<LogEvent['type']>(reactions.flatMap((reaction) => [...reaction.handles]));
  const jobsFor = (event: RecordedEvent): StoredJob[] =>
    withTraceLinks(
      event,
      reactions
        .filter((reaction) => reaction.handles.has(event.type))
        .flatMap((reaction) => reaction.jobsFor(event).map(storedJobOf)),
    );
  return {
    name: 'reactions',
    // Never rebuilt: its table is part of the numbered migrations.
    schemaVersion: 1,
    schema: JOBS_SCHEMA,
    handles,
    async apply(event: RecordedEvent, tx: SqlExecutor): Promise<void> {
      for (const job of await jobsStillWanted(tx, jobsFor(event))) await insertJob(tx, job);
    },
    /** Every job the batch calls for, in one insert (the first schedule of a job id wins either way). */
    async applyBatch(events: readonly RecordedEvent[], tx: SqlExecutor): Promise<void> {
      await insertJobs(tx, await jobsStillWanted(tx, events.flatMap(jobsFor)));
    },
  };
}

/** A job keeps the trace context of the event that called for it, so its span links back to the order's request. */
function withTraceLinks(event: RecordedEvent, jobs: StoredJob[]): StoredJob[] {
  const links = traceLinksForEvent(event);
  if (links.length === 0) return jobs;
  return jobs.map((job) => ({ ...job, payload: { ...job.payload, [TRACE_LINKS_KEY]: links } }));
}

/**
 * Drops the jobs whose condition does not hold: webhook deliveries for partners without a
 * webhook URL, by one read of the settings read model. That model is current for every settings
 * change answered so far (settings commands wait for it before they answer), so an order placed
 * after a partner's URL change is announced by that change's rule.
 */
async function jobsStillWanted(tx: SqlExecutor, candidates: readonly StoredJob[]): Promise<readonly StoredJob[]> {
  const jobs = await lowBalanceCrossings(tx, candidates);
  const targets = jobs.flatMap((job) => (job.onlyIfWebhookUrl ? [job.onlyIfWebhookUrl] : []));
  if (targets.length === 0) return jobs;
  const scopeOf = (target: { partnerId: string; environment: string }) => `${target.partnerId} ${target.environment}`;
  const scopes = [...new Map(targets.map((target) => [scopeOf(target), target])).values()];
  const rows = await tx.query<{ partner_id: string; environment: string }>(
    `SELECT s.partner_id, s.environment
       FROM rm_partner_settings s
       JOIN unnest($1::text[], $2::text[]) AS w(partner_id, environment) ON s.partner_id = w.partner_id AND s.environment = w.environment
      WHERE s.settings ->> 'webhookUrl' IS NOT NULL`,
    [scopes.map((scope) => scope.partnerId), scopes.map((scope) => scope.environment)],
  );
  const withUrl = new Set(rows.map((row) => scopeOf({ partnerId: row.partner_id, environment: row.environment })));
  return jobs.filter((job) => !job.onlyIfWebhookUrl || withUrl.has(scopeOf(job.onlyIfWebhookUrl)));
}

/**
 * Keeps a low-balance notice only for a debit that crossed its partner's threshold, read from the
 * settings read model in this transaction (one read per batch, and only for partners that set one).
 */
async function lowBalanceCrossings(tx: SqlExecutor, jobs: readonly StoredJob[]): Promise<readonly StoredJob[]> {
  const candidates = jobs.flatMap((job) => (job.onlyIfCrossesBelow ? [job.onlyIfCrossesBelow] : []));
  if (candidates.length === 0) return jobs;
  const scopeOf = (target: { partnerId: string; environment: string }) => `${target.partnerId} ${target.environment}`;
  const scopes = [...new Map(candidates.map((target) => [scopeOf(target), target])).values()];
  const rows = await tx.query<{ partner_id: string; environment: string; threshold: string }>(
    `SELECT s.partner_id, s.environment, s.settings ->> 'lowBalanceThreshold' AS threshold
       FROM rm_partner_settings s
       JOIN unnest($1::text[], $2::text[]) AS w(partner_id, environment) ON s.partner_id = w.partner_id AND s.environment = w.environment
      WHERE s.settings ->> 'lowBalanceThreshold' IS NOT NULL`,
    [scopes.map((scope) => scope.partnerId), scopes.map((scope) => scope.environment)],
  );
  const thresholds = new Map(
    rows.map((row) => [scopeOf({ partnerId: row.partner_id, environment: row.environment }), row.threshold]),
  );
  return jobs.flatMap((job) => {
    const debit = job.onlyIfCrossesBelow;
    if (!debit) return [job];
    const threshold = thresholds.get(scopeOf(debit));
    if (threshold === undefined || !debitCrossesBelow(debit, threshold)) return [];
    return [{ ...job, payload: { ...job.payload, threshold } }];
  });
}
