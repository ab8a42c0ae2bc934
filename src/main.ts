import 'reflect-metadata';
import cluster from 'node:cluster';
import { extname, join } from 'node:path';
import { ConfigError, loadConfig } from './config/load-config';
import { createApp } from './create-app';
import { BackgroundThread } from './infrastructure/processing/background-thread';
import { BackgroundMode } from './infrastructure/processing/background-processing';
import { ProcessGroup } from './process-group';

async function main(): Promise<void> {
  const config = loadConfig();
  if (config.httpProcesses > 1 && cluster.isPrimary) {
    await ProcessGroup.start(config.httpProcesses);
    console.log(`partner service: ${config.httpProcesses} processes listening on http://${config.host}:${config.port}`);
    return;
  }
  const background: BackgroundMode =
    config.backgroundWork === 'thread'
      ? {
          kind: 'elsewhere',
          // background-main.js when built; .ts when the sources run with a TypeScript loader (tests).
          thread: await BackgroundThread.start(join(__dirname, `background-main${extname(__filename)}`), (reason) => {
            console.error(`${reason}; stopping the service`);
            process.exit(1);
          }),
        }
      : { kind: 'here' };
  const app = await createApp(config, { background });
  await app.listen({ port: config.port, host: config.host });
  const mode = config.eventStore === 'embedded' ? `embedded (${config.embeddedDatabaseDir})` : config.eventStore;
  if (cluster.isWorker) return;
  console.log(
    `partner service listening on http://${config.host}:${config.port} — event store: ${mode}; background work: ${config.backgroundWork}; partner API at /v1/partner`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exitCode = 1;
  // A background thread already started would keep the process alive.
  setTimeout(() => process.exit(1), 200).unref();
});
