import cluster from 'node:cluster';
import { extname, join } from 'node:path';
import { ConfigError, loadConfig } from '../../config/load-config';
import { createApp } from './create-app';
import { startEmbeddedServerIfOwner } from '../../infrastructure/sql/embedded/embedded-server-lifecycle';
import { readBackgroundMetricsFrom } from '../../infrastructure/metrics/metrics-text';
import { BackgroundThread } from '../../infrastructure/processing/background-thread';
import { BackgroundMode } from '../../infrastructure/processing/background-processing';
import { consoleServerLog } from '../../infrastructure/sql/embedded/console-server-log';
import { EmbeddedPostgresServer } from '../../infrastructure/sql/embedded/embedded-postgres-server';
import { ProcessGroup } from './process-group';
import { nodeFlagsWarning } from './node-flags';

/** background-main.js beside main.js when built; .ts when the sources run with a TypeScript loader (tests). */
const BACKGROUND_MAIN = join(__dirname, '..', '..', `background-main${extname(__filename)}`);

let embeddedServer: EmbeddedPostgresServer | null = null;

async function main(): Promise<void> {
  const config = loadConfig();
  process.env.LOG_FORMAT = config.logFormat;
  const flagsWarning = cluster.isPrimary ? nodeFlagsWarning(process.execArgv) : null;
  if (flagsWarning) console.warn(flagsWarning);
  embeddedServer = await startEmbeddedServerIfOwner(config, consoleServerLog(config.logLevel, config.logFormat));
  const stopEmbeddedServer = async (): Promise<void> => {
    await embeddedServer?.stop();
  };
  if (config.httpProcesses > 1 && cluster.isPrimary) {
    await ProcessGroup.start(config.httpProcesses, stopEmbeddedServer);
    console.log(`partner service: ${config.httpProcesses} processes listening on http://${config.host}:${config.port}`);
    return;
  }
  const thread =
    config.backgroundWork === 'thread'
      ? await BackgroundThread.start(BACKGROUND_MAIN, (reason) => {
          console.error(`${reason}; stopping the service`);
          void stopEmbeddedServer().finally(() => process.exit(1));
        })
      : null;
  if (thread) readBackgroundMetricsFrom(() => thread.metrics());
  const background: BackgroundMode = thread ? { kind: 'elsewhere', thread } : { kind: 'here' };
  const app = await createApp(config, { background, afterClose: stopEmbeddedServer });
  await app.listen({ port: config.port, host: config.host });
  const mode = embeddedServer ? `embedded (PostgreSQL in ${join(config.dataDir, 'postgres')})` : config.eventStore;
  if (cluster.isWorker) return;
  console.log(
    `partner service listening on http://${config.host}:${config.port} — event store: ${mode}; background work: ${config.backgroundWork}; partner API at /v1/partner`,
  );
}

// The service process (src/main.ts): the embedded PostgreSQL server when it owns DATA_DIR, then the process
// group (HTTP_PROCESSES > 1) or one HTTP application, its background work here or in a thread.
export function runServiceProcess(): void {
  main().catch(async (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exitCode = 1;
    await embeddedServer?.stop().catch(() => undefined);
    // A background thread already started would keep the process alive.
    setTimeout(() => process.exit(1), 200).unref();
  });
}
