import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { SERVICE_NODE_FLAGS } from '../../src/composition/service/node-flags';
import { freeLoopbackPort as freePort } from '../../src/infrastructure/net/free-loopback-port';

const ROOT = join(__dirname, '..', '..');
/** Compiles src/**.ts on require with the jest transform's swc options (decorator metadata for Nest). */
const REGISTER = join(__dirname, 'swc-register.cjs');
/** Stops the service when its stdin pipe from this process closes (this process ended, even by a signal). */
const EXIT_WITH_PARENT = join(__dirname, 'exit-with-parent.cjs');
/** What is kept of a process's output: its start (where the start-up messages are) and its latest lines. */
const OUTPUT_HEAD_CHARS = 32_000;
const OUTPUT_TAIL_CHARS = 16_000;

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface StoppedProcess extends ProcessExit {
  /** True when the process had not exited within the grace period and was killed with SIGKILL. */
  forced: boolean;
}

/**
 * The service as a separate OS process: `node --require swc-register.cjs src/main.ts`, from the
 * sources (no build), on 127.0.0.1 and a free port, with the environment the caller gives
 * (EVENT_STORE, DATABASE_URL, secrets...). `start` resolves once /health answers 200.
 * A process still running when the test process exits is killed with SIGKILL; if the test
 * process dies without an exit event (a signal), the closed stdin pipe stops the service.
 */
export class ServiceProcess {
  /** Resolves when the process has exited, with its exit code or signal. */
  readonly exited: Promise<ProcessExit>;
  private exit: ProcessExit | null = null;
  private outputHead = '';
  private outputTail = '';
  private outputDropped = false;
  private readonly killOnParentExit = (): void => {
    if (!this.exit) this.child.kill('SIGKILL');
  };

  private constructor(
    readonly name: string,
    readonly url: string,
    private readonly child: ChildProcess,
  ) {
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        process.removeListener('exit', this.killOnParentExit);
        resolve(this.exit);
      });
    });
    process.once('exit', this.killOnParentExit);
    const keep = (chunk: Buffer): void => {
      let text = chunk.toString('utf8');
      if (this.outputHead.length < OUTPUT_HEAD_CHARS) {
        const room = OUTPUT_HEAD_CHARS - this.outputHead.length;
        this.outputHead += text.slice(0, room);
        text = text.slice(room);
      }
      if (!text) return;
      const tail = this.outputTail + text;
      this.outputDropped ||= tail.length > OUTPUT_TAIL_CHARS;
      this.outputTail = tail.slice(-OUTPUT_TAIL_CHARS);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
  }

  /** Waits up to `readyTimeoutMs` for /health: a start from sources took over 30 s at load 10 on two cores. */
  static async start(name: string, env: Record<string, string>, readyTimeoutMs = 90_000): Promise<ServiceProcess> {
    for (let attempt = 1; ; attempt++) {
      const service = ServiceProcess.spawn(name, env, await freePort());
      try {
        await service.waitUntilHealthy(readyTimeoutMs);
        return service;
      } catch (error) {
        await service.stop(1_000);
        // The free port may have been taken by someone else between the check and the listen.
        if (attempt < 3 && service.output.includes('EADDRINUSE')) continue;
        throw error;
      }
    }
  }

  private static spawn(name: string, env: Record<string, string>, port: number): ServiceProcess {
    const childEnv: NodeJS.ProcessEnv = {
      ...process.env,
      // Off unless a test asks for it: a run due at the machine's real time would reconcile a test's simulator.
      RECONCILIATION_AT: 'off',
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
      EXIT_WITH_PARENT_STDIN: '1',
    };
    // jest's --experimental-vm-modules (and any other flags meant for the test runner) stay out of the service.
    delete childEnv.NODE_OPTIONS;
    const nodeArgs = [...SERVICE_NODE_FLAGS, '--require', EXIT_WITH_PARENT, '--require', REGISTER, 'src/main.ts'];
    const child = spawn(process.execPath, nodeArgs, {
      cwd: ROOT,
      env: childEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdin?.on('error', () => undefined);
    return new ServiceProcess(name, `http://127.0.0.1:${port}`, child);
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  /** What the process wrote (stdout and stderr, interleaved): its start and its latest lines, for assertions and failure messages. */
  get output(): string {
    return this.outputHead + (this.outputDropped ? '\n[…]\n' : '') + this.outputTail;
  }

  get running(): boolean {
    return this.exit === null;
  }

  private async waitUntilHealthy(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.exit)
        throw new Error(`service ${this.name} exited during start (${JSON.stringify(this.exit)}):\n${this.output}`);
      try {
        if ((await fetch(`${this.url}/health`)).ok) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline)
        throw new Error(`service ${this.name} did not answer /health within ${timeoutMs} ms:\n${this.output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** SIGKILL at once: no shutdown hook runs (a crash, an OOM kill, a pulled plug of the process). */
  async kill(): Promise<ProcessExit> {
    if (!this.exit) this.child.kill('SIGKILL');
    return this.exited;
  }

  /** SIGTERM (the service drains its background work and closes the database), SIGKILL after `graceMs`. */
  async stop(graceMs = 15_000): Promise<StoppedProcess> {
    if (this.exit) return { ...this.exit, forced: false };
    let forced = false;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => {
      forced = true;
      this.child.kill('SIGKILL');
    }, graceMs);
    try {
      return { ...(await this.exited), forced };
    } finally {
      clearTimeout(timer);
    }
  }
}
