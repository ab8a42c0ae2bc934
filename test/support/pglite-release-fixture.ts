import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';

/** A data folder written by the release whose embedded store was PGlite (see test/fixtures/pglite-7c37db7/README.md). */
const FIXTURE = resolve(__dirname, '../fixtures/pglite-7c37db7');

/** What that release's partner API answered just before it was stopped. */
export interface SeenByTheRelease {
  apiKeySecret: string;
  events: number;
  partners: {
    partnerId: string;
    corridor: string;
    sandboxKey: string;
    balance: Record<string, unknown>;
    transactions: { count: number; transactions: Record<string, unknown>[] };
  }[];
}

export const seenByTheRelease = (): SeenByTheRelease =>
  JSON.parse(readFileSync(join(FIXTURE, 'seen-by-the-release.json'), 'utf8')) as SeenByTheRelease;

/** Unpacks the release's `pglite` folder into `parent` (with `tar`) and returns its path. */
export function unpackReleaseFolder(parent: string): string {
  execFileSync('tar', ['-x', '-C', parent], {
    input: brotliDecompressSync(readFileSync(join(FIXTURE, 'pglite.tar.br'))),
  });
  return join(parent, 'pglite');
}

/** A digest of every file's path, size and content under `folder`, to show it was left as it was. */
export function folderDigest(folder: string): string {
  const hash = createHash('sha256');
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const stat = statSync(path);
      if (stat.isDirectory()) walk(path);
      else hash.update(`${relative(folder, path)}\0${stat.size}\0`).update(readFileSync(path));
    }
  };
  walk(folder);
  return hash.digest('hex');
}
