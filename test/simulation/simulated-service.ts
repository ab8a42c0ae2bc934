import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { constants, tmpdir } from 'node:os';
import { Client } from 'pg';
import { ProviderDirectory } from '../../src/application/ports/provider-gateway.port';
import { SecretGenerator } from '../../src/application/ports/secrets.port';
import { WebhookSender } from '../../src/application/ports/webhook.port';
import { loadConfig } from '../../src/config/load-config';
import { createApp } from '../../src/composition/service/create-app';
import { ManualClock } from '../support/manual-clock';
import { BackgroundProcessing } from '../../src/infrastructure/processing/background-processing';
import { ProjectionDaemon } from '../../src/infrastructure/projections/projection-daemon';
import { SqlDatabase } from '../../src/infrastructure/sql/sql-database';
import { SQL_DATABASE } from '../../src/composition/tokens';

export const SIM_ADMIN_TOKEN = 'simulation-admin-token-0123456789';
const SIM_KEY_SECRET = 'simulation-api-key-secret-0123456789abcdef-0123';
const SIGNALS = Object.keys(constants.signals) as NodeJS.Signals[];

/** The background thread that the scheduler stands for: nothing to nudge, nothing to stop. */
const THE_SCHEDULER = { nudge: (): void => undefined, stop: async (): Promise<void> => undefined };

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: any;
}

export interface ServiceDoubles {
  clock: ManualClock;
  providers: ProviderDirectory;
  webhookSender: WebhookSender;
  secrets: SecretGenerator;
}

/**
 * One "process" of the service under simulation: the real application (createApp) on the run's
 * database, with background work run when the scheduler says, the manual clock and the scripted upstream and
 * webhook receiver. Requests go through Fastify's inject: the whole HTTP stack, no socket.
 */
export class SimulatedService {
  private constructor(
    readonly app: NestFastifyApplication,
    private readonly databaseUrl: string,
  ) {}

  /** `jobConcurrency` above 1 runs jobs side by side, as the service does; the order they finish in is then not the seed's. */
  static async start(databaseUrl: string, doubles: ServiceDoubles, jobConcurrency = 1): Promise<SimulatedService> {
    const config = {
      ...loadConfig({
        EVENT_STORE: 'postgres',
        DATABASE_URL: databaseUrl,
        DATA_DIR: tmpdir(),
        API_KEY_SECRET: SIM_KEY_SECRET,
        ADMIN_TOKEN: SIM_ADMIN_TOKEN,
        LOG_LEVEL: 'silent',
        // Nothing runs by itself on the wall clock: jobs run when the scheduler says, one at a time (a fixed order).
        PROJECTION_POLL_MS: '60000',
        JOB_POLL_MS: '60000',
        JOB_CONCURRENCY: String(jobConcurrency),
        // Wallets are snapshotted every few events, so restarts after a crash load them from snapshots.
        WALLET_SNAPSHOT_EVERY: '3',
      }),
      host: '127.0.0.1',
      port: 0,
    };
    const before = new Map(SIGNALS.map((signal) => [signal, process.listeners(signal)]));
    // As the HTTP thread of BACKGROUND_WORK=thread: projections run only when a request waits for
    // them, and the "background thread" is the scheduler's settle and job rounds. Nothing moves
    // between steps by itself, so jobs are scheduled and claimed in the same order on every replay.
    const app = await createApp(config, { background: { kind: 'elsewhere', thread: THE_SCHEDULER }, ...doubles });
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
    // Several applications live and die in this one process: none of them may act on this process's signals.
    for (const signal of SIGNALS) {
      for (const listener of process.listeners(signal))
        if (!before.get(signal)?.includes(listener)) process.removeListener(signal, listener);
    }
    return new SimulatedService(app, databaseUrl);
  }

  async request(
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await this.app.inject({
      method,
      url,
      headers,
      payload: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    let body: unknown;
    try {
      body = response.body ? JSON.parse(response.body) : undefined;
    } catch {
      body = response.body;
    }
    return { status: response.statusCode, headers: response.headers, body };
  }

  admin(
    method: 'GET' | 'POST' | 'PATCH',
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Answer> {
    return this.request(method, `/v1/admin${path}`, { token: SIM_ADMIN_TOKEN, body, headers });
  }

  /** Projections and due jobs until nothing is left. */
  settle(): Promise<void> {
    return this.app.get(BackgroundProcessing).drain();
  }

  /** One round of due jobs, without catching the projections up first. */
  runDueJobsOnce(): Promise<number> {
    return this.app.get(BackgroundProcessing).jobs.runDue();
  }

  get<T>(token: string | symbol | (new (...args: never[]) => T)): T {
    return this.app.get<unknown, T>(token);
  }

  /** A clean stop, at the end of a run: shutdown hooks, drained work. */
  async close(): Promise<void> {
    await this.app.close();
  }

  /**
   * The process dies: the database server ends its sessions (an open transaction rolls back, as
   * for a killed process), and the application is dropped without its shutdown hooks. What it had
   * in flight (a provider call that never returned, say) is abandoned; nothing of it runs again.
   */
  async crash(): Promise<void> {
    await terminateSessions(this.databaseUrl);
    const db = this.app.get<SqlDatabase>(SQL_DATABASE);
    await settleWithin(db.close(), 2_000);
    // Stops the projection poll timer; its final catch-up fails on the closed pool, and is ignored.
    await settleWithin(this.app.get(ProjectionDaemon).stop(), 2_000);
  }
}

async function settleWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work.catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** Ends every session of the database but this one, from a separate connection. */
export async function terminateSessions(databaseUrl: string): Promise<number> {
  const client = new Client({ connectionString: databaseUrl, application_name: 'simulation-crash' });
  await client.connect();
  try {
    const result = await client.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    return result.rowCount ?? 0;
  } finally {
    await client.end();
  }
}
