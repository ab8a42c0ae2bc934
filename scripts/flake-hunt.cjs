#!/usr/bin/env node
// `npm run test:flakes -- [--runs N] [--jobs J] [filter...]`: runs every integration, simulation and contract spec
// N times (FLAKE_RUNS or --runs, default 5), each run of each file in its own jest process (--runInBand), J files at
// once (default 1; with 2, like npm test's shared lane: the files test/lanes.cjs names, and contract files, still run
// with nothing beside them), one line per run, then reports every file that failed at least once: its failed runs and
// their first failing tests. A filter keeps the files whose path contains it (`-- --runs 20 portal console`).
// Exits 1 if any run failed.
const { spawn } = require('node:child_process');
const { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, relative } = require('node:path');
const { runsAlone } = require('../test/lanes.cjs');

const root = join(__dirname, '..');
const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const runs = Number(runsAt >= 0 ? args.splice(runsAt, 2)[1] : process.env.FLAKE_RUNS || 5);
const jobsAt = args.indexOf('--jobs');
const jobs = Number(jobsAt >= 0 ? args.splice(jobsAt, 2)[1] : 1);
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(jobs) || jobs < 1) {
  console.error(
    'usage: npm run test:flakes -- [--runs N] [--jobs J] [filter...]   (or FLAKE_RUNS=N; N, J whole numbers >= 1)',
  );
  process.exit(2);
}
const filters = args;

const specs = (folder) =>
  readdirSync(join(root, folder), { recursive: true })
    .filter((name) => name.endsWith('.spec.ts'))
    .map((name) => relative(root, join(root, folder, name)))
    .sort();
const files = ['test/integration', 'test/simulation', 'test/contract']
  .flatMap(specs)
  .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)));
if (files.length === 0) {
  console.error(`no spec file matches ${filters.join(', ')}`);
  process.exit(2);
}

const logs = mkdtempSync(join(tmpdir(), 'flake-hunt-'));
const failures = new Map(); // file -> [{ run, tests, log }]
let interrupted = false;
process.on('SIGINT', () => (interrupted = true)); // jest gets the Ctrl-C too; the runs so far are reported

/** One jest process for one file: whether it passed, its failing tests (or why there are none), its output. */
function runOnce(file, run) {
  const results = join(logs, `results.${run}.${file.replace(/[/\\]/g, '_')}.json`);
  rmSync(results, { force: true });
  const jest = join(root, 'node_modules', 'jest', 'bin', 'jest.js');
  const child = spawn(
    process.execPath,
    [jest, '--runInBand', '--runTestsByPath', file, '--json', `--outputFile=${results}`],
    {
      cwd: root,
      // Every file of a project, whatever lane the caller's TEST_LANE would pick.
      env: {
        ...process.env,
        TEST_LANE: '',
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules`.trim(),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      let tests;
      try {
        const [suite] = JSON.parse(readFileSync(results, 'utf8')).testResults;
        tests = suite.assertionResults
          .filter((test) => test.status === 'failed')
          .map((test) => ({ name: test.fullName, why: test.failureMessages.join('\n') }));
        // A failure outside any test (a hook, an import, an open handle's error) is the file's own.
        if (tests.length === 0 && suite.message) tests = [{ name: '(the file itself)', why: suite.message }];
      } catch {
        // Jest itself ended early (a process.exit in the code under test, a crash): its output says why.
        tests = [{ name: `(no jest results: exit code ${code}, signal ${signal})`, why: output }];
      }
      const passed = code === 0;
      let log = null;
      if (!passed) {
        log = join(logs, `${file.replace(/[/\\]/g, '_')}.run${run}.log`);
        writeFileSync(log, output);
      }
      resolve({ passed, tests, log, signal });
    });
  });
}

/** The first line of a failure message that says something (past colour codes, blank lines and jest's headings). */
const firstLine = (why) =>
  why
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .map((line) => line.replace(/^\s*●\s*/, '').trim())
    .find((line) => line !== '' && line !== 'Test suite failed to run') ?? '';

function report() {
  console.log(`\n${failures.size === 0 ? 'No file failed.' : `${failures.size} file(s) failed at least once:`}`);
  for (const [file, failed] of failures) {
    console.log(`\n${file}: failed ${failed.length} time(s), run(s) ${failed.map((one) => one.run).join(', ')}`);
    for (const { run, tests, log } of failed) {
      console.log(`  run ${run} (output: ${log})`);
      for (const test of tests.slice(0, 3)) console.log(`    ✕ ${test.name}\n      ${firstLine(test.why)}`);
      if (tests.length > 3) console.log(`    … and ${tests.length - 3} more`);
    }
  }
}

/** Runs every (run, file) in order, `jobs` at a time; a file that runs alone waits for the others and holds them back. */
async function main() {
  console.log(`${files.length} file(s), ${runs} run(s) each, ${jobs} at once; output of failed runs in ${logs}`);
  const queue = [];
  for (let run = 1; run <= runs; run += 1) for (const file of files) queue.push({ run, file });
  const running = new Set();
  const one = async ({ run, file }) => {
    const started = Date.now();
    const result = await runOnce(file, run);
    if (result.signal === 'SIGINT') interrupted = true;
    if (interrupted) return;
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`run ${run}/${runs}  ${result.passed ? 'PASS' : 'FAIL'}  ${seconds.padStart(6)} s  ${file}`);
    if (!result.passed) failures.set(file, [...(failures.get(file) ?? []), { run, ...result }]);
  };
  for (const item of queue) {
    if (interrupted) break;
    const alone = runsAlone(item.file);
    while (running.size >= (alone ? 1 : jobs) || [...running].some((job) => job.alone)) await Promise.race(running);
    if (interrupted) break;
    const job = one(item).finally(() => running.delete(job));
    job.alone = alone;
    running.add(job);
  }
  await Promise.all(running);
  if (interrupted) console.log('\nInterrupted: the report covers the runs that finished.');
  report();
  process.exit(failures.size > 0 || interrupted ? 1 : 0);
}

void main();
