import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_NODE_FLAGS } from '../../src/composition/service/node-flags';
import { freePort, log, peakRssMb, rssMb, sleep } from './util';

export type StoreMode = 'postgres' | 'embedded';

export const BENCH_ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
export const BENCH_KEY_SECRET = 'bench-api-key-secret-0123456789abcdef-0123';

/** The service's settlement work due and not done (one row `n`). */
export const SERVICE_DUE_WORK_SQL = `SELECT count(*)::text AS n FROM jobs WHERE done_at IS NULL AND due_at <= now()`;

export interface ServiceOptions {
  root: string;
  mode: StoreMode;
  databaseUrl: string | null;
  dataDir: string;
  /** Node flags of this probe for the service, before BENCH_SERVICE_NODE_ARGS's (a tracer it reads the output of). */
  nodeArgs?: readonly string[];
  /** More of the service's environment (a setting a probe compares). */
  env?: Readonly<Record<string, string>>;
}

/** The compiled service (`dist/main.js`) as a second process on loopback. */
export class ServiceProcess {
  private exited = false;
  private stderr = '';

  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    readonly options: ServiceOptions,
  ) {
    child.on('exit', () => {
      this.exited = true;
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-4000);
    });
    if (process.env.BENCH_SERVICE_LOG_LEVEL) child.stdout?.pipe(process.stderr);
    else child.stdout?.resume();
  }

  static async start(options: ServiceOptions, readyTimeoutMs = 120_000): Promise<ServiceProcess> {
    const entry = join(options.root, 'dist', 'main.js');
    if (!existsSync(entry)) throw new Error(`${entry} is missing: run npm run build first (npm run bench does)`);
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      EVENT_STORE: options.mode,
      DATABASE_URL: options.databaseUrl ?? '',
      DATA_DIR: options.dataDir,
      API_KEY_SECRET: BENCH_KEY_SECRET,
      ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
      LOG_LEVEL: process.env.BENCH_SERVICE_LOG_LEVEL ?? 'silent',
      HOST: '127.0.0.1',
      PORT: String(port),
      ...options.env,
    };
    // BENCH_SERVICE_NODE_ARGS: extra node flags for the service (a --require profiler, --cpu-prof, ...).
    const nodeArgs = [
      ...(options.nodeArgs ?? []),
      ...(process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean),
    ];
    // Started as `npm start` starts it: with the service's V8 flags (decision 0175).
    const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, ...nodeArgs, entry], {
      cwd: options.root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const service = new ServiceProcess(child, `http://127.0.0.1:${port}`, options);
    const started = Date.now();
    for (;;) {
      if (service.exited) throw new Error(`the service exited during start:\n${service.stderr}`);
      try {
        const answer = await fetch(`${service.url}/health`);
        if (answer.ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() - started > readyTimeoutMs) {
        await service.stop();
        throw new Error(`the service did not answer /health within ${readyTimeoutMs} ms:\n${service.stderr}`);
      }
      await sleep(100);
    }
    log(`service (${options.mode}) pid ${child.pid} ready at ${service.url} in ${Date.now() - started} ms`);
    return service;
  }

  /** Calls `listener` with each chunk the service writes to stdout (V8's traces go there). */
  onStdout(listener: (text: string) => void): void {
    this.child.stdout?.on('data', (chunk: Buffer) => listener(chunk.toString()));
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  rssMb(): number | null {
    return rssMb(this.pid);
  }

  peakRssMb(): number | null {
    return peakRssMb(this.pid);
  }

  /** SIGTERM (the service drains its background work), SIGKILL after a grace period. */
  async stop(graceMs = 30_000): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => {
      if (!this.exited) this.child.kill('SIGKILL');
    }, graceMs);
    await gone;
    clearTimeout(timer);
  }
}
