#!/usr/bin/env node
// Runs npm scripts side by side and fails if any fails: `node scripts/run-together.cjs a b+c` runs `a` beside the
// sequence `b` then `c`. Each single-threaded guard (ESLint, tsc) then has a core of its own. A sequence's output is
// printed whole when it ends, so two tools' lines never interleave.
const { spawn } = require('node:child_process');

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function runScript(name) {
  return new Promise((resolve) => {
    const chunks = [];
    const child = spawn(npm, ['run', '--silent', name], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('error', (error) => resolve({ name, code: 1, output: `${String(error)}\n` }));
    child.on('close', (code, signal) =>
      resolve({ name, code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks).toString() }),
    );
  });
}

async function runSequence(names) {
  const results = [];
  for (const name of names) {
    const started = Date.now();
    const result = await runScript(name);
    results.push({ ...result, seconds: (Date.now() - started) / 1000 });
    if (result.code !== 0) break;
  }
  for (const { name, code, output, seconds } of results) {
    process.stdout.write(`> ${name}: ${code === 0 ? 'ok' : `failed (exit ${code})`} in ${seconds.toFixed(0)} s\n`);
    if (output.trim()) process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
  }
  return results.every((result) => result.code === 0);
}

async function main() {
  const sequences = process.argv.slice(2).map((argument) => argument.split('+').filter(Boolean));
  if (sequences.length === 0 || sequences.some((names) => names.length === 0)) {
    process.stderr.write('usage: node scripts/run-together.cjs SCRIPT[+SCRIPT...] [SCRIPT[+SCRIPT...] ...]\n');
    process.exit(2);
  }
  const passed = await Promise.all(sequences.map(runSequence));
  process.exit(passed.every(Boolean) ? 0 : 1);
}

void main();
