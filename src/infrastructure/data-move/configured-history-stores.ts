import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ConfiguredStoreUnavailableError,
  HistoryStores,
  OpenedHistoryStore,
} from '../../application/ports/history-move.port';
import { ServiceConfig } from '../../config/service-config';
import { EmbeddedPostgresServer, EmbeddedServerLog } from '../sql/embedded/embedded-postgres-server';
import { startEmbeddedServerIfOwner } from '../sql/embedded/embedded-server-lifecycle';
import { isNodeProcessAlive } from '../sql/embedded/process-alive';
import { embeddedSocketConnectionString } from '../sql/embedded/server-endpoint';
import { openConfiguredStore } from './configured-store';
import { openedHistoryStore } from './opened-history-store';
import { SqlProjection } from '../projections/sql-projection';

/** The configured store, opened as the service opens it (refused while the service runs, except an export through its own socket). */
export class ConfiguredHistoryStores implements HistoryStores {
  constructor(
    private readonly config: ServiceConfig,
    private readonly serverLog: EmbeddedServerLog,
    private readonly readModels: readonly SqlProjection[],
  ) {}

  refuseWhileServiceRuns(): void {
    const running = this.config.eventStore === 'embedded' ? runningService(this.config.dataDir) : null;
    if (running !== null)
      throw this.unavailable(
        new Error(`the service (pid ${running}) is running on ${this.config.dataDir}; stop it before importing`),
      );
  }

  async open(access: 'read' | 'write'): Promise<OpenedHistoryStore> {
    const config = this.config;
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
      server = await startEmbeddedServerIfOwner(config, this.serverLog);
    } catch (error) {
      throw this.unavailable(error);
    }
    try {
      const { db, store, close } = await openConfiguredStore(config);
      const closeAll = async (): Promise<void> => {
        try {
          await close();
        } finally {
          await server?.stop();
        }
      };
      return openedHistoryStore(db, store, closeAll, this.readModels);
    } catch (error) {
      await server?.stop();
      throw this.unavailable(error);
    }
  }

  private unavailable(cause: unknown): ConfiguredStoreUnavailableError {
    return new ConfiguredStoreUnavailableError(this.config.eventStore, cause);
  }
}

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
