#!/usr/bin/env node
// `npm start` compiles only when a source or build setting changed since the last build, so a restart is not a compile.
const { execFileSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const built = join(root, 'dist', 'main.js');
const inputs = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'].map((name) =>
  join(root, name),
);

function newestChange(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestChange(join(path, name))), stat.mtimeMs);
}

const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
if (builtAt === 0 || inputs.some((input) => newestChange(input) > builtAt)) {
  execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '--silent', 'build'], {
    cwd: root,
    stdio: 'inherit',
  });
}
