import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HistoricalEvent } from '../application/ports/event-store.port';
import { assertEmpty, historicalEventOf, importHistory, readHistory } from '../application/data-move/event-history';
import { ServiceConfig } from '../config/service-config';
import { startEmbeddedServerIfOwner } from '../infrastructure/sql/embedded/embedded-server-lifecycle';
import { ConfiguredStore, openConfiguredStore } from '../infrastructure/data-move/configured-store';
import { EmbeddedPostgresServer, EmbeddedServerLog } from '../infrastructure/sql/embedded/embedded-postgres-server';
import { isNodeProcessAlive } from '../infrastructure/sql/embedded/process-alive';
import { embeddedSocketConnectionString } from '../infrastructure/sql/embedded/server-endpoint';
import { historyLine, checkHistoryFile, readHistoryFile } from '../infrastructure/data-move/history-lines';
import { assertNothingDerived, rebuildAfterImport } from '../infrastructure/data-move/rebuild-after-import';
import { forgetWalletSnapshots } from '../infrastructure/wallet-snapshots/sql-wallet-snapshots';
import { PgliteEventReader } from '../infrastructure/data-move/pglite-event-reader';

/** Where a step of a move stands: started with a total, then told the count done so far. */
export interface StepProgress {
  start(
    step: 'export' | 'import' | 'read models',
    total: number,
  ): { update(done: number): void; finish(done: number): void };
}

export interface MoveOptions {
  progress: StepProgress;
  /** Embedded mode: the messages of the PostgreSQL server the command starts in DATA_DIR (never on stdout, which holds the export). */
  serverLog: EmbeddedServerLog;
}

export class StoreUnavailableError extends Error {
  constructor(config: ServiceConfig, cause: unknown) {
    super(
      `cannot open the configured store (EVENT_STORE=${config.eventStore}): ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
    this.name = 'StoreUnavailableError';
  }
}

/**
 * The configured store, opened as the service opens it. In embedded mode that starts the PostgreSQL server in
 * DATA_DIR/postgres (creating the cluster on a first import), which is refused while the service runs on that
 * folder; it is stopped again on close. An export (`read`) from the embedded mode of a running service reads
 * through that service's own server instead (its Unix socket).
 */
async function opened(
  config: ServiceConfig,
  serverLog: EmbeddedServerLog,
  access: 'read' | 'write',
): Promise<ConfiguredStore> {
  let server;
  try {
    const running = config.eventStore === 'embedded' ? runningService(config.dataDir) : null;
    if (running !== null) config.databaseUrl = runningServerAddress(config.dataDir, running, access);
    // An export creates nothing: without a cluster there is no history to read.
    if (
      config.eventStore === 'embedded' &&
      access === 'read' &&
      !EmbeddedPostgresServer.clusterExists(config.dataDir)
    ) {
      throw new Error(`there is no embedded database in ${join(config.dataDir, 'postgres')}`);
    }
    server = await startEmbeddedServerIfOwner(config, serverLog);
  } catch (error) {
    throw new StoreUnavailableError(config, error);
  }
  try {
    const store = await openConfiguredStore(config);
    return {
      ...store,
      async close() {
        try {
          await store.close();
        } finally {
          await server?.stop();
        }
      },
    };
  } catch (error) {
    await server?.stop();
    throw new StoreUnavailableError(config, error);
  }
}

/** The process id of a live service that owns DATA_DIR (DATA_DIR/service.pid), if any. */
function runningService(dataDir: string): number | null {
  const file = join(dataDir, 'service.pid');
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && isNodeProcessAlive(pid) ? pid : null;
}

function runningServerAddress(dataDir: string, pid: number, access: 'read' | 'write'): string {
  if (access === 'write')
    throw new Error(`the service (pid ${pid}) is running on ${dataDir}; stop it before importing`);
  const address = embeddedSocketConnectionString(dataDir);
  if (!address)
    throw new Error(
      `the service (pid ${pid}) is running on ${dataDir} and its server listens on loopback only; stop it to export`,
    );
  return address;
}

/** Writes every event of the configured store, in global order, one history line each; returns how many. */
export async function exportConfiguredStore(
  config: ServiceConfig,
  writeLine: (line: string) => Promise<void>,
  { progress, serverLog }: MoveOptions,
): Promise<number> {
  const { store, close } = await opened(config, serverLog, 'read');
  try {
    const step = progress.start('export', await store.countEvents(null));
    let exported = 0;
    for await (const event of readHistory(store)) {
      await writeLine(historyLine(historicalEventOf(event)));
      step.update(++exported);
    }
    step.finish(exported);
    return exported;
  } finally {
    await close();
  }
}

export type HistorySource = { kind: 'history-file'; path: string } | { kind: 'pglite-folder'; path: string };

export interface ImportOutcome {
  events: number;
  readModelEvents: number;
  jobsScheduled: number;
  keysBound: number;
}

/**
 * Appends a history into the configured store, which must be empty (and its service database free of read models
 * of another history), then rebuilds what the service derives from it (rebuildAfterImport).
 */
export async function importIntoConfiguredStore(
  config: ServiceConfig,
  source: HistorySource,
  { progress, serverLog }: MoveOptions,
): Promise<ImportOutcome> {
  // Refused at once, before the source is read, when a service runs on the embedded store's folder.
  const running = config.eventStore === 'embedded' ? runningService(config.dataDir) : null;
  if (running !== null)
    throw new StoreUnavailableError(
      config,
      new Error(`the service (pid ${running}) is running on ${config.dataDir}; stop it before importing`),
    );
  const reader = source.kind === 'pglite-folder' ? await PgliteEventReader.open(source.path) : null;
  try {
    const total = reader ? await reader.count() : await checkHistoryFile(source.path);
    const events: AsyncIterable<HistoricalEvent> = reader ? reader.events() : readHistoryFile(source.path);
    const { db, store, close } = await opened(config, serverLog, 'write');
    try {
      await assertEmpty(store);
      await assertNothingDerived(db);
      // The store is empty, so a wallet snapshot left in its database describes another log.
      await forgetWalletSnapshots(db);
      const importing = progress.start('import', total);
      const imported = await importHistory(store, events, {
        batchSize: 2_000,
        onProgress: (done) => importing.update(done),
      });
      importing.finish(imported);
      const rebuilding = progress.start('read models', imported);
      const rebuilt = await rebuildAfterImport(db, store, {
        now: new Date(),
        stuckOrderAfterMs: config.stuckOrderAfterMs,
        onProgress: (done) => rebuilding.update(done),
      });
      rebuilding.finish(rebuilt.events);
      return {
        events: imported,
        readModelEvents: rebuilt.events,
        jobsScheduled: rebuilt.jobsScheduled,
        keysBound: rebuilt.keysBound,
      };
    } finally {
      await close();
    }
  } finally {
    await reader?.close();
  }
}
