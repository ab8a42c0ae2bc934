import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { isProgressLine } from '../../src/interface/cli/progress-reporter';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

const REPO_ROOT = resolve(__dirname, '../..');
const MAIN = resolve(REPO_ROOT, 'src/cli-main.ts');

/**
 * `tsx` (what `npm run cli` uses) starts a second node process; compiling the same sources in one
 * process with the swc hook the service's own scripts use costs a fifth of that, which keeps the
 * suite fast. One test still runs the CLI through `tsx` itself.
 */
const LAUNCHERS = {
  'tsx-cli': [require.resolve('tsx/cli')],
  preload: ['--require', resolve(REPO_ROOT, 'test/support/swc-register.cjs')],
} as const;

/** Runs the CLI in its own process, as operators do, with only the environment given here. */
export const runCli = (
  args: readonly string[],
  env: Record<string, string | undefined>,
  options: { cwd?: string; launcher?: keyof typeof LAUNCHERS } = {},
): Promise<CliRun> =>
  new Promise((done, fail) => {
    const launcher = LAUNCHERS[options.launcher ?? 'preload'];
    const child = spawn(process.execPath, [...launcher, MAIN, ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env: { PATH: process.env.PATH, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });

/**
 * stderr without the progress lines a long-running command prints once its request has taken a second
 * (decision 0103): how long it takes depends on the machine's load, so a test of the outcome ignores them.
 */
export const stderrBesidesProgress = (stderr: string): string =>
  stderr
    .split('\n')
    .filter((line) => line !== '' && !isProgressLine(line))
    .join('\n');
