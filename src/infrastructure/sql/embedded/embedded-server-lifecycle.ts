import cluster from 'node:cluster';
import { EMBEDDED_DATABASE_URL } from '../../../config/load-config';
import { ServiceConfig } from '../../../config/service-config';
import { EmbeddedPostgresServer, EmbeddedServerLog } from './embedded-postgres-server';

/** Each thread that uses the database opens a pool of this size (PostgresDatabase, both commit modes). */
const CONNECTIONS_PER_THREAD = 20;
/** Room for operator sessions (psql, data export) and connections of a process being replaced. */
const SPARE_CONNECTIONS = 20;

/** Embedded mode: the first process starts the server in DATA_DIR and hands its address on (EMBEDDED_DATABASE_URL); null otherwise. */
export async function startEmbeddedServerIfOwner(
  config: ServiceConfig,
  log: EmbeddedServerLog,
): Promise<EmbeddedPostgresServer | null> {
  if (config.eventStore !== 'embedded' || config.databaseUrl !== null || cluster.isWorker) return null;
  const threads = config.backgroundWork === 'thread' ? 2 : 1;
  const server = await EmbeddedPostgresServer.start({
    dataDir: config.dataDir,
    maxConnections: config.httpProcesses * threads * CONNECTIONS_PER_THREAD + SPARE_CONNECTIONS,
    log,
  });
  process.env[EMBEDDED_DATABASE_URL] = server.connectionString;
  config.databaseUrl = server.connectionString;
  return server;
}
