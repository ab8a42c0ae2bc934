import { EventLogDiagnostics } from '../../application/ports/event-log-diagnostics.port';
import { EventStore, RecordedEvent } from '../../application/ports/event-store.port';
import { storedJobOf } from '../../application/ports/job-queue.port';
import { UnfinishedWork } from '../../application/process-managers/unfinished-work';
import { KeyBindingsFromLog } from '../../application/data-move/key-bindings-from-log';
import { bindAnsweredKeys } from '../idempotency/bind-keys';
import { StoreNotEmptyError, readHistory } from '../../application/data-move/event-history';
import { insertJobs } from '../jobs/sql-job-queue';
import { checkpoints } from '../projections/checkpoint-store';
import { PROJECTION_GROUPS } from '../projections/projection-groups';
import { applyEvents } from '../projections/sql-projection';
import { READ_MODEL_PROJECTIONS } from '../read-models/read-model-projections';
import { SqlDatabase } from '../sql/sql-database';

export interface RebuildOutcome {
  events: number;
  jobsScheduled: number;
  keysBound: number;
}

const BATCH = 500;

/**
 * After an import, builds what the service derives from the log, as it would have it had it written the events:
 * - the reactions' checkpoint set to the head without running them: the imported orders were submitted,
 *   refunded and announced by the service that recorded them, and must not be again;
 * - the jobs for the work the history leaves undone (UnfinishedWork), under the ids the service uses;
 * - the Idempotency-Keys of the debits of the last 24 hours (KeyBindingsFromLog), so a retry cannot debit again;
 * - the read models, applied from the first event to the last (their group's checkpoint ends at the head).
 */
export async function rebuildAfterImport(
  db: SqlDatabase,
  store: Pick<EventStore, 'readAll'> & Pick<EventLogDiagnostics, 'headPosition'>,
  options: { now: Date; stuckOrderAfterMs: number; onProgress?: (applied: number) => void },
): Promise<RebuildOutcome> {
  await assertNothingDerived(db);
  await checkpoints.ensure(db, PROJECTION_GROUPS.readModels);
  await checkpoints.ensure(db, PROJECTION_GROUPS.reactions);
  // First, in one commit, what must never happen twice: a service started after this point (even one started
  // before the read models are done, which then catch up by themselves) runs no reaction of the imported history.
  const unfinished = new UnfinishedWork();
  const keys = new KeyBindingsFromLog();
  for await (const event of readHistory(store, BATCH)) {
    unfinished.observe(event);
    keys.observe(event);
  }
  const head = await store.headPosition();
  const jobs = unfinished.jobs(options.now, options.stuckOrderAfterMs);
  const bindings = keys.bindings(options.now);
  await db.transaction(async (tx) => {
    if (head) await checkpoints.write(tx, PROJECTION_GROUPS.reactions, head);
    await insertJobs(tx, jobs.map(storedJobOf));
    await bindAnsweredKeys(tx, bindings);
  });
  const events = await buildReadModels(db, store, options.onProgress);
  return { events, jobsScheduled: jobs.length, keysBound: bindings.length };
}

/**
 * Applies the log from its first event into the serving read-model tables, moving their group's checkpoint with
 * each batch. Not blue/green: an empty store has no serving version to keep answering meanwhile.
 */
async function buildReadModels(
  db: SqlDatabase,
  store: Pick<EventStore, 'readAll'>,
  onProgress?: (applied: number) => void,
): Promise<number> {
  let batch: RecordedEvent[] = [];
  let applied = 0;
  const apply = async (): Promise<void> => {
    const events = batch;
    batch = [];
    await db.transaction(async (tx) => {
      for (const projection of READ_MODEL_PROJECTIONS) await applyEvents(projection, events, tx);
      await checkpoints.write(tx, PROJECTION_GROUPS.readModels, events[events.length - 1].position);
    });
    applied += events.length;
    onProgress?.(applied);
  };
  for await (const event of readHistory(store, BATCH)) {
    batch.push(event);
    if (batch.length >= BATCH) await apply();
  }
  if (batch.length) await apply();
  return applied;
}

/** The service database must not hold read models of another history (in eventstoredb mode it is a separate database). */
export async function assertNothingDerived(db: SqlDatabase): Promise<void> {
  const rows = await db.query<{ name: string }>(
    'SELECT name FROM projection_checkpoints WHERE commit_position IS NOT NULL AND name = ANY($1::text[])',
    [[PROJECTION_GROUPS.readModels, PROJECTION_GROUPS.reactions]],
  );
  if (rows.length)
    throw new StoreNotEmptyError(
      `the database at DATABASE_URL has read models built from another history (checkpoint ${rows[0].name})`,
    );
}
