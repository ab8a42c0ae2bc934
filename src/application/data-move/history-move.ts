import { Clock } from '../ports/clock.port';
import { HistoricalEvent } from '../ports/event-store.port';
import { HistorySourceRef, HistorySources, HistoryStores } from '../ports/history-move.port';
import { assertEmpty, historicalEventOf, importHistory, readHistory } from './event-history';
import { rebuildAfterImport } from './rebuild-after-import';
import { countWithheld, noneWithheld, WithheldCounts, withSecretsWithheld } from './secrets-withheld';

/** Where a step of a move stands: started with a total, then told the count done so far. */
export interface StepProgress {
  start(
    step: 'export' | 'import' | 'read models',
    total: number,
  ): { update(done: number): void; finish(done: number): void };
}

export interface ImportOutcome {
  events: number;
  /** Secrets the export left out (`--without-secrets`): what must be made again before partners and operators get in. */
  withheld: WithheldCounts;
  readModelEvents: number;
  jobsScheduled: number;
  keysBound: number;
}

export interface ExportOptions {
  /** Key hashes, operator token hashes and sealed webhook secrets replaced by the withheld marker. */
  withoutSecrets: boolean;
  /** Who exports (the system user and host), as the back-office action log records it. */
  exportedBy: string;
}

/** Events per importEvents call (one commit in the SQL stores). */
const IMPORT_BATCH = 2_000;

/**
 * `data export` and `data import`: a whole history out of the configured store, in global order, or into it
 * (which must be empty), followed by what the service derives from it.
 */
export class HistoryMove {
  constructor(
    private readonly stores: HistoryStores,
    private readonly sources: HistorySources,
    private readonly clock: Clock,
    private readonly settings: { stuckOrderAfterMs: number },
  ) {}

  /**
   * Gives every event of the configured store, in global order, to `write`; returns how many. The
   * export is recorded in the back-office action log before its first event is written: an export
   * that cannot be recorded is not made, and one cut short is still on record.
   */
  async exportHistory(
    write: (event: HistoricalEvent) => Promise<void>,
    progress: StepProgress,
    options: ExportOptions,
  ): Promise<number> {
    const opened = await this.stores.open('read');
    try {
      const total = await opened.store.countEvents(null);
      await opened.recordAction({
        operator: options.exportedBy,
        operatorId: null,
        role: 'owner',
        action: 'history_exported',
        subject: 'event-log',
        partnerId: null,
        environment: null,
        detail: { events: total, without_secrets: options.withoutSecrets },
        at: this.clock.now(),
      });
      const step = progress.start('export', total);
      let exported = 0;
      for await (const event of readHistory(opened.store)) {
        const historical = historicalEventOf(event);
        await write(options.withoutSecrets ? withSecretsWithheld(historical) : historical);
        step.update(++exported);
      }
      step.finish(exported);
      return exported;
    } finally {
      await opened.close();
    }
  }

  /**
   * Appends a history into the configured store, which must be empty (and its service database free of read models
   * of another history), then rebuilds what the service derives from it.
   */
  async importHistory(from: HistorySourceRef, progress: StepProgress): Promise<ImportOutcome> {
    // Refused at once, before the source is read, when a service runs on the store.
    this.stores.refuseWhileServiceRuns();
    const source = await this.sources.open(from);
    try {
      const total = await source.count();
      const target = await this.stores.open('write');
      try {
        await assertEmpty(target.store);
        await target.assertNothingDerived();
        // The store is empty, so a wallet snapshot left in its database describes another log.
        await target.forgetWalletSnapshots();
        const importing = progress.start('import', total);
        const withheld = noneWithheld();
        const imported = await importHistory(target.store, counted(source.events(), withheld), {
          batchSize: IMPORT_BATCH,
          onProgress: (done) => importing.update(done),
        });
        importing.finish(imported);
        const rebuilding = progress.start('read models', imported);
        const rebuilt = await rebuildAfterImport(target, {
          now: this.clock.now(),
          stuckOrderAfterMs: this.settings.stuckOrderAfterMs,
          onProgress: (done) => rebuilding.update(done),
        });
        rebuilding.finish(rebuilt.events);
        return {
          events: imported,
          withheld,
          readModelEvents: rebuilt.events,
          jobsScheduled: rebuilt.jobsScheduled,
          keysBound: rebuilt.keysBound,
        };
      } finally {
        await target.close();
      }
    } finally {
      await source.close();
    }
  }
}

async function* counted(
  events: AsyncIterable<HistoricalEvent>,
  withheld: WithheldCounts,
): AsyncGenerator<HistoricalEvent> {
  for await (const event of events) {
    countWithheld(event, withheld);
    yield event;
  }
}
