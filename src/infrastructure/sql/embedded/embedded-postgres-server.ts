import { ChildProcess, spawn } from 'node:child_process';
import { chownSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { ClusterFolder } from './cluster-folder';
import { LeftoverServer } from './leftover-server';
import { PostgresBinaries, locatePostgresBinaries } from './postgres-binaries';
import { ServerAccount, serverAccount } from './server-account';
import { ServerEndpoint, chooseEndpoint } from './server-endpoint';
import { ServiceOwnership } from './service-ownership';

export interface EmbeddedServerLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

interface EmbeddedServerOptions {
  dataDir: string;
  maxConnections: number;
  log: EmbeddedServerLog;
  /** Waits before each restart of a server that died, the last one repeating (tests lengthen the first). */
  restartDelaysMs?: readonly number[];
}

const READY_TIMEOUT_MS = 60_000;

/** Autovacuum on and tuned for an append-mostly log with small, hot read models (docs/operations.md, "The embedded server's autovacuum"). */
const AUTOVACUUM_SETTINGS: Readonly<Record<string, string>> = {
  autovacuum: 'on',
  track_counts: 'on',
  autovacuum_naptime: '15s',
  autovacuum_analyze_scale_factor: '0.02',
  autovacuum_vacuum_scale_factor: '0.05',
  autovacuum_vacuum_insert_scale_factor: '0.05',
  autovacuum_vacuum_cost_limit: '1000',
};
const RESTART_DELAYS_MS = [250, 500, 1_000, 2_000, 5_000, 10_000];

/** A PostgreSQL server the service starts, watches and stops itself (decision 0089); one left by a killed service is restarted under this one. */
export class EmbeddedPostgresServer {
  private child: ChildProcess | null = null;
  private stopping = false;
  private restarts = 0;
  private up = false;
  private readonly waiters: { up: boolean; resolve: () => void }[] = [];

  private constructor(
    private readonly options: EmbeddedServerOptions,
    private readonly binaries: PostgresBinaries,
    private readonly account: ServerAccount,
    private readonly folder: ClusterFolder,
    private readonly endpoint: ServerEndpoint,
    private readonly ownership: ServiceOwnership,
  ) {}

  static async start(options: EmbeddedServerOptions): Promise<EmbeddedPostgresServer> {
    const { log } = options;
    mkdirSync(options.dataDir, { recursive: true });
    const ownership = ServiceOwnership.claim(options.dataDir);
    try {
      const binaries = locatePostgresBinaries();
      const account = serverAccount((message) => log.info(message));
      const folder = new ClusterFolder(options.dataDir, account);
      if (!folder.initialised()) {
        const started = Date.now();
        await folder.initialise(binaries);
        log.info(`created the embedded PostgreSQL cluster in ${folder.clusterDir} (${Date.now() - started} ms)`);
      }
      await LeftoverServer.stopIfRunning(folder.clusterDir, log);
      const endpoint = await chooseEndpoint(options.dataDir, folder.password());
      folder.prepareSocketDir(endpoint);
      const server = new EmbeddedPostgresServer(options, binaries, account, folder, endpoint, ownership);
      await server.launch();
      log.info(
        `embedded PostgreSQL ${folder.version()} listening on ${endpoint.description} (cluster ${folder.clusterDir})`,
      );
      return server;
    } catch (error) {
      ownership.release();
      throw error;
    }
  }

  get connectionString(): string {
    return this.endpoint.connectionString;
  }

  get running(): boolean {
    return this.up;
  }

  waitUntil(up: boolean): Promise<void> {
    if (this.up === up) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ up, resolve }));
  }

  private setUp(up: boolean): void {
    this.up = up;
    for (const waiter of this.waiters.filter((candidate) => candidate.up === up)) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  }

  /** Fast shutdown: open transactions roll back, committed ones are on disk, the next start needs no recovery. */
  async stop(): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGINT');
      await exited;
    }
    this.setUp(false);
    this.ownership.release();
  }

  private async launch(): Promise<void> {
    const logFile = openSync(join(this.options.dataDir, 'postgres.log'), 'a', 0o600);
    if (this.account.uid !== null && this.account.gid !== null)
      chownSync(join(this.options.dataDir, 'postgres.log'), this.account.uid, this.account.gid);
    const child = spawn(this.binaries.postgres, ['-D', this.folder.clusterDir, ...this.serverSettings()], {
      // Its own process group: a Ctrl-C in the terminal reaches the service, which stops the server after
      // its own work has drained, instead of the server shutting down under it.
      detached: true,
      stdio: ['ignore', logFile, logFile],
      ...(this.account.uid !== null && this.account.gid !== null
        ? { uid: this.account.uid, gid: this.account.gid }
        : {}),
      env: { ...process.env, LC_MESSAGES: 'C' },
    });
    closeSync(logFile);
    this.child = child;
    const exitedEarly = new Promise<never>((_, reject) =>
      child.once('exit', (code, signal) =>
        reject(
          new Error(
            `the embedded PostgreSQL server exited during start (${signal ?? `code ${code}`}); see ${join(this.options.dataDir, 'postgres.log')}`,
          ),
        ),
      ),
    );
    exitedEarly.catch(() => undefined);
    await Promise.race([this.waitUntilAnswering(), exitedEarly]);
    this.setUp(true);
    this.restarts = 0;
    child.once('exit', (code, signal) => this.onUnexpectedExit(code, signal));
  }

  private serverSettings(): string[] {
    const settings: Record<string, string> = {
      ...this.endpoint.settings,
      max_connections: String(this.options.maxConnections),
      // Durability: every commit is flushed before it is acknowledged, and torn pages can be repaired.
      fsync: 'on',
      synchronous_commit: 'on',
      full_page_writes: 'on',
      logging_collector: 'off',
      // Half of PostgreSQL's default: the service and its server share one host's memory (target: both under
      // 400 MB after 100,000 orders); pages past the buffers still come from the kernel's page cache.
      shared_buffers: '64MB',
      ...AUTOVACUUM_SETTINGS,
    };
    return Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
  }

  private async waitUntilAnswering(): Promise<void> {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      const client = new Client({ connectionString: this.endpoint.connectionString, connectionTimeoutMillis: 2_000 });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.query('SELECT 1');
        return;
      } catch (error) {
        if (Date.now() > deadline)
          throw new Error(
            `the embedded PostgreSQL server did not answer within ${READY_TIMEOUT_MS} ms: ${(error as Error).message}`,
            { cause: error },
          );
      } finally {
        await client.end().catch(() => undefined);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  private onUnexpectedExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.setUp(false);
    if (this.stopping) return;
    const delays = this.options.restartDelaysMs ?? RESTART_DELAYS_MS;
    const delay = delays[Math.min(this.restarts, delays.length - 1)];
    this.restarts += 1;
    this.options.log.error(
      `the embedded PostgreSQL server exited (${signal ?? `code ${code}`}); restarting it in ${delay} ms (attempt ${this.restarts})`,
    );
    setTimeout(() => void this.restart(), delay).unref();
  }

  private async restart(): Promise<void> {
    if (this.stopping) return;
    try {
      // Its children may outlive it for a moment; a start would then find their shared memory in use.
      await LeftoverServer.stopIfRunning(this.folder.clusterDir, this.options.log);
      await this.launch();
      this.options.log.warn(
        `the embedded PostgreSQL server is running again (${this.endpoint.description}); it recovered from its write-ahead log`,
      );
    } catch (error) {
      this.onUnexpectedExit(null, null);
      this.options.log.error(`restarting the embedded PostgreSQL server failed: ${(error as Error).message}`);
    }
  }

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  static clusterExists(dataDir: string): boolean {
    return existsSync(join(dataDir, 'postgres', 'PG_VERSION'));
  }
}
