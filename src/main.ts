import 'reflect-metadata';
import { ConfigError, loadConfig } from './config/load-config';
import { createApp } from './create-app';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createApp(config);
  await app.listen({ port: config.port, host: config.host });
  const mode = config.eventStore === 'embedded' ? `embedded (${config.embeddedDatabaseDir})` : config.eventStore;
  console.log(`partner service listening on http://${config.host}:${config.port} — event store: ${mode}; partner API at /v1/partner`);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exitCode = 1;
});
