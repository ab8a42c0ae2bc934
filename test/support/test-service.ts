import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/load-config';
import { ServiceConfig } from '../../src/config/service-config';
import { createApp } from '../../src/composition/service/create-app';
import { ManualClock } from './manual-clock';
import { BackgroundProcessing } from '../../src/infrastructure/processing/background-processing';
import { createTestDatabase } from './postgres-test-database';
import { EmbeddedPostgresServer } from '../../src/infrastructure/sql/embedded/embedded-postgres-server';
import { PartnerClient } from '../../clients/typescript/src';
import { partnerClient } from './partner-client';
import { OperatorRole } from '../../src/domain/back-office/operator-role';

export type StoreKind = 'embedded' | 'postgres';

export interface TestServiceOptions {
  store: StoreKind;
  clock?: ManualClock;
  /** Shares a database with another test service (two processes on one PostgreSQL). */
  databaseUrl?: string;
  /** Embedded store: the DATA_DIR of its PostgreSQL server (restart tests); default: a scratch folder removed at close. */
  dataDir?: string;
  /** Background loops on (like production); default off, tests call `settle()`. */
  runInBackground?: boolean;
  env?: Record<string, string>;
  /** Embedded store: waits before restarting a server that died (default: the service's). */
  embeddedRestartDelaysMs?: readonly number[];
  /** Address to listen on; default 127.0.0.1. '::' listens on IPv6 (and IPv4-mapped) as well, and `url` then uses [::1]. */
  host?: string;
  /** Told of every route the application registers from then on (Fastify's onRoute hook): the controllers' routes. */
  onRoute?: (route: { method: string | string[]; url: string }) => void;
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed body; undefined when the body is not JSON. */
  body: any;
}

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';
export const TEST_KEY_SECRET = 'test-api-key-secret-0123456789abcdef-0123';

/**
 * A real service on 127.0.0.1 with a real database, a manual clock, and background work driven by
 * `settle()`. Store 'postgres': a fresh database on the machine's PostgreSQL server. Store
 * 'embedded': the embedded mode itself, a PostgreSQL server the service starts in its DATA_DIR
 * (slower to start; for tests about that mode).
 */
export class TestService {
  private constructor(
    readonly app: NestFastifyApplication,
    readonly url: string,
    readonly clock: ManualClock,
    readonly config: ServiceConfig,
    readonly databaseUrl: string | null,
    readonly port: number,
    /** Store 'embedded': the service's own PostgreSQL server. */
    readonly embeddedServer: EmbeddedPostgresServer | null,
    private readonly cleanup: () => Promise<void>,
  ) {}

  static async start(options: TestServiceOptions): Promise<TestService> {
    const clock = options.clock ?? new ManualClock(new Date());
    let databaseUrl = options.databaseUrl ?? null;
    let dropDatabase: (() => Promise<void>) | null = null;
    if (options.store === 'postgres' && !databaseUrl) {
      const database = await createTestDatabase('svc');
      databaseUrl = database.connectionString;
      dropDatabase = () => database.drop();
    }
    const scratch = mkdtempSync(join(tmpdir(), 'svc-test-'));
    // As root the embedded server runs as the postgres account, which must be able to enter the folder.
    chmodSync(scratch, 0o711);
    const dataDir = options.dataDir ?? scratch;
    let server: EmbeddedPostgresServer | null = null;
    if (options.store === 'embedded') {
      server = await EmbeddedPostgresServer.start({
        dataDir,
        maxConnections: 60,
        log: QUIET_SERVER_LOG,
        restartDelaysMs: options.embeddedRestartDelaysMs,
      });
      databaseUrl = server.connectionString;
    }
    const config: ServiceConfig = {
      ...loadConfig({
        EVENT_STORE: options.store,
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl ?? '',
        EMBEDDED_DATABASE_URL: databaseUrl ?? '',
        API_KEY_SECRET: TEST_KEY_SECRET,
        ADMIN_TOKEN: TEST_ADMIN_TOKEN,
        LOG_LEVEL: 'silent',
        // Off unless a test asks for it: tests that move the clock over days would reconcile their simulators too.
        RECONCILIATION_AT: 'off',
        ...options.env,
      }),
      host: options.host ?? '127.0.0.1',
      port: 0,
    };
    const app = await createApp(config, {
      clock,
      background: { kind: options.runInBackground ? 'here' : 'by_hand' },
    }).catch(async (error: unknown) => {
      await server?.stop();
      throw error;
    });
    const onRoute = options.onRoute;
    if (onRoute)
      app
        .getHttpAdapter()
        .getInstance()
        .addHook('onRoute', (route) => onRoute(route));
    const host = options.host ?? '127.0.0.1';
    await app.listen({ port: 0, host });
    const address = app.getHttpServer().address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const urlHost = !host.includes(':') ? '127.0.0.1' : host === '::' || host === '::1' ? '[::1]' : `[${host}]`;
    return new TestService(app, `http://${urlHost}:${port}`, clock, config, databaseUrl, port, server, async () => {
      await app.close();
      await server?.stop();
      rmSync(scratch, { recursive: true, force: true });
      if (dropDatabase) await dropDatabase();
    });
  }

  /** Runs projections and due jobs until nothing is left (instead of waiting for background loops). */
  async settle(): Promise<void> {
    await this.app.get(BackgroundProcessing).drain();
  }

  /** Moves the clock, then runs whatever became due. */
  async advance(ms: number): Promise<void> {
    this.clock.advance(ms);
    await this.settle();
  }

  async request(
    method: string,
    path: string,
    options: { token?: string; body?: unknown; rawBody?: string | Buffer; headers?: Record<string, string> } = {},
  ): Promise<HttpAnswer> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | Buffer | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${this.url}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, text, body: parsed };
  }

  admin(method: string, path: string, body?: unknown): Promise<HttpAnswer> {
    return this.request(method, `/v1/admin${path}`, { token: TEST_ADMIN_TOKEN, body });
  }

  /** A back-office call with an operator's own token (see `operatorToken`). */
  adminAs(
    token: string,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<HttpAnswer> {
    return this.request(method, `/v1/admin${path}`, { token, body, headers });
  }

  /** Creates a back-office operator with the break-glass token; its token is shown once, here. */
  async createOperator(
    name: string,
    role: OperatorRole,
    expiresInDays?: number,
  ): Promise<{ operatorId: string; token: string; expiresAt: string }> {
    const answer = await this.admin('POST', '/operators', {
      name,
      role,
      ...(expiresInDays === undefined ? {} : { expires_in_days: expiresInDays }),
    });
    if (answer.status !== 201) throw new Error(`operator create failed: ${answer.status} ${answer.text}`);
    return { operatorId: answer.body.operator_id, token: answer.body.token, expiresAt: answer.body.expires_at };
  }

  private readonly operatorTokens = new Map<string, string>();

  /** The token of the operator of this name and role, created at the first call and reused after. */
  async operatorToken(name: string, role: OperatorRole): Promise<string> {
    const known = this.operatorTokens.get(`${name} ${role}`);
    if (known) return known;
    const { token } = await this.createOperator(name, role);
    this.operatorTokens.set(`${name} ${role}`, token);
    return token;
  }

  partner(
    method: string,
    path: string,
    token: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<HttpAnswer> {
    return this.request(method, `/v1/partner${path}`, { token, body, headers });
  }

  /** Onboards a partner and returns its id and sandbox key. */
  async createPartner(
    corridor: 'IN' | 'BD' | 'SG' = 'IN',
    name = 'Test Partner',
  ): Promise<{ partnerId: string; sandboxKey: string }> {
    const answer = await this.admin('POST', '/partners', { name, corridor });
    if (answer.status !== 201) throw new Error(`partner create failed: ${answer.status} ${answer.text}`);
    return { partnerId: answer.body.partner_id, sandboxKey: answer.body.sandbox_api_key };
  }

  /** The generated TypeScript client of the partner API (clients/typescript), calling this service with the key. */
  client(apiKey: string): PartnerClient {
    return partnerClient(this.url, apiKey);
  }

  topup(token: string, body: Record<string, unknown>, idempotencyKey: string): Promise<HttpAnswer> {
    return this.partner('POST', '/topup', token, body, { 'idempotency-key': idempotencyKey });
  }

  async verify(): Promise<HttpAnswer> {
    return this.admin('GET', '/verify');
  }

  async close(): Promise<void> {
    await this.cleanup();
  }
}

/** Sandbox test numbers per corridor: suffix 0001..0005 decide the outcome. */
export const SANDBOX_PHONES = {
  IN: (suffix: string) => `+91987654${suffix}`,
  BD: (suffix: string) => `+880171234${suffix}`,
  SG: (suffix: string) => `+658123${suffix}`,
} as const;

/**
 * The stores the behaviour suites run on. Embedded mode runs the same PostgreSQL adapters against a
 * server of its own, so its own suites (embedded-*.spec.ts) cover what differs: the server's lifecycle.
 */
export const STORES: StoreKind[] = ['postgres'];

const QUIET_SERVER_LOG = {
  info: () => undefined,
  warn: () => undefined,
  error: (message: string) => console.error(message),
};
