import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { BENCH_KEY_SECRET } from './service';
import { freePort, log, sleep } from './util';

/** The bare Fastify balance server (bare-server.ts) as its own process. */
export class BareServer {
  private exited = false;
  private stderr = '';

  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {
    child.on('exit', () => {
      this.exited = true;
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-4000);
    });
    child.stdout?.resume();
  }

  static async start(root: string, target: { databaseUrl: string }): Promise<BareServer> {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      API_KEY_SECRET: BENCH_KEY_SECRET,
      DATABASE_URL: target.databaseUrl,
    };
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench', 'lib', 'bare-server.ts')], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const server = new BareServer(child, `http://127.0.0.1:${port}`);
    const started = Date.now();
    for (;;) {
      if (server.exited) throw new Error(`the bare server exited during start:\n${server.stderr}`);
      try {
        if ((await fetch(`${server.url}/health`)).ok) break;
      } catch {
        // not yet
      }
      if (Date.now() - started > 60_000) {
        await server.stop();
        throw new Error(`the bare server did not start:\n${server.stderr}`);
      }
      await sleep(100);
    }
    log(`bare Fastify server pid ${child.pid} ready at ${server.url}`);
    return server;
  }

  get pid(): number | null {
    return this.child.pid ?? null;
  }

  async stop(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await gone;
    clearTimeout(timer);
  }
}
