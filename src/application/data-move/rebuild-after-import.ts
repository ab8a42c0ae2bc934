import { RecordedEvent } from '../ports/event-store.port';
import { OpenedHistoryStore } from '../ports/history-move.port';
import { readHistory } from './event-history';
import { KeyBindingsFromLog } from './key-bindings-from-log';
import { UnfinishedWork } from './unfinished-work';

export interface RebuildOutcome {
  /** Events applied to the read models: the whole log. */
  events: number;
  jobsScheduled: number;
  keysBound: number;
}

/** Events per page when the imported log is read again. */
const BATCH = 500;

/**
 * After an import, builds what the service derives from the log (decision 0090): the reactions' checkpoint at the
 * head without running them, the jobs of UnfinishedWork, the Idempotency-Keys of the last 24 hours' debits
 * (KeyBindingsFromLog), and the read models from the first event to the last.
 */
export async function rebuildAfterImport(
  target: OpenedHistoryStore,
  options: { now: Date; stuckOrderAfterMs: number; onProgress?: (applied: number) => void },
): Promise<RebuildOutcome> {
  await target.assertNothingDerived();
  // First, in one commit, what must never happen twice: a service started after this point (even one started
  // before the read models are done, which then catch up by themselves) runs no reaction of the imported history.
  const unfinished = new UnfinishedWork();
  const keys = new KeyBindingsFromLog();
  for await (const event of readHistory(target.store, BATCH)) {
    unfinished.observe(event);
    keys.observe(event);
  }
  const head = await target.store.headPosition();
  const jobs = unfinished.jobs(options.now, options.stuckOrderAfterMs);
  const bindings = keys.bindings(options.now);
  await target.adoptImportedWork({ head, jobs, bindings });
  const events = await buildReadModels(target, options.onProgress);
  return { events, jobsScheduled: jobs.length, keysBound: bindings.length };
}

/** Applies the log from its first event into the read models, a page at a time; returns how many events. */
async function buildReadModels(target: OpenedHistoryStore, onProgress?: (applied: number) => void): Promise<number> {
  let batch: RecordedEvent[] = [];
  let applied = 0;
  const apply = async (): Promise<void> => {
    const events = batch;
    batch = [];
    await target.applyToReadModels(events);
    applied += events.length;
    onProgress?.(applied);
  };
  for await (const event of readHistory(target.store, BATCH)) {
    batch.push(event);
    if (batch.length >= BATCH) await apply();
  }
  if (batch.length) await apply();
  return applied;
}
