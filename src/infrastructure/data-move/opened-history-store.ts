import { EventImport } from '../../application/ports/event-import.port';
import { EventLogDiagnostics } from '../../application/ports/event-log-diagnostics.port';
import { EventStore, RecordedEvent } from '../../application/ports/event-store.port';
import { ImportedWork, OpenedHistoryStore, StoreNotEmptyError } from '../../application/ports/history-move.port';
import { storedJobOf } from '../../application/ports/job-queue.port';
import { forgetWalletSnapshots } from '../wallet-snapshots/sql-wallet-snapshots';
import { bindAnsweredKeys } from '../idempotency/bind-keys';
import { insertJobs } from '../jobs/sql-job-queue';
import { checkpoints } from '../projections/checkpoint-store';
import { PROJECTION_GROUPS } from '../projections/projection-groups';
import { BatchScope, SqlProjection, applyEvents } from '../projections/sql-projection';
import { SqlDatabase } from '../sql/sql-database';
import { SqlBackOfficeActionLog } from '../back-office/sql-back-office-action-log';

export const openedHistoryStore = (
  db: SqlDatabase,
  store: EventStore & EventLogDiagnostics & EventImport,
  close: () => Promise<void>,
  readModels: readonly SqlProjection[],
): OpenedHistoryStore => ({
  store,
  assertNothingDerived: () => assertNothingDerived(db),
  forgetWalletSnapshots: () => forgetWalletSnapshots(db),
  adoptImportedWork: (work) => adoptImportedWork(db, work),
  applyToReadModels: (events) => applyToReadModels(db, readModels, events),
  recordAction: (action) => new SqlBackOfficeActionLog(db).record(action),
  close,
});

/** In one commit, what must never happen twice: reactions' checkpoint at the head, the jobs left undone, the Idempotency-Keys still bound. */
async function adoptImportedWork(db: SqlDatabase, work: ImportedWork): Promise<void> {
  await checkpoints.ensure(db, PROJECTION_GROUPS.readModels);
  await checkpoints.ensure(db, PROJECTION_GROUPS.reactions);
  await db.transaction(async (tx) => {
    if (work.head) await checkpoints.write(tx, PROJECTION_GROUPS.reactions, work.head);
    await insertJobs(tx, work.jobs.map(storedJobOf));
    await bindAnsweredKeys(tx, work.bindings);
  });
}

async function applyToReadModels(
  db: SqlDatabase,
  readModels: readonly SqlProjection[],
  events: readonly RecordedEvent[],
): Promise<void> {
  if (events.length === 0) return;
  await db.transaction(async (tx) => {
    const batch = new BatchScope();
    for (const projection of readModels) await applyEvents(projection, events, tx, batch);
    await checkpoints.write(tx, PROJECTION_GROUPS.readModels, events[events.length - 1].position);
  });
}

async function assertNothingDerived(db: SqlDatabase): Promise<void> {
  const rows = await db.query<{ name: string }>(
    'SELECT name FROM projection_checkpoints WHERE commit_position IS NOT NULL AND name = ANY($1::text[])',
    [[PROJECTION_GROUPS.readModels, PROJECTION_GROUPS.reactions]],
  );
  if (rows.length)
    throw new StoreNotEmptyError(
      `the database at DATABASE_URL has read models built from another history (checkpoint ${rows[0].name})`,
    );
}
