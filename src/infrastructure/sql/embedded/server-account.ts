import { execFileSync } from 'node:child_process';
import { userInfo } from 'node:os';

export interface ServerAccount {
  name: string;
  uid: number | null;
  gid: number | null;
}

const ACCOUNT_NAME = 'postgres';

/** PostgreSQL refuses to run as root: as root the server runs as the system account `postgres`, created when missing. */
export function serverAccount(log: (message: string) => void): ServerAccount {
  const self = userInfo();
  if (self.uid !== 0) return { name: self.username, uid: null, gid: null };
  let ids = accountIds(ACCOUNT_NAME);
  if (ids === null) {
    execFileSync(
      'useradd',
      ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', ACCOUNT_NAME],
      { stdio: 'ignore' },
    );
    log(
      `created the system account "${ACCOUNT_NAME}" to run the embedded PostgreSQL server (PostgreSQL refuses to run as root)`,
    );
    ids = accountIds(ACCOUNT_NAME);
    if (ids === null)
      throw new Error(`could not create the system account "${ACCOUNT_NAME}" for the embedded PostgreSQL server`);
  }
  return { name: ACCOUNT_NAME, ...ids };
}

function accountIds(name: string): { uid: number; gid: number } | null {
  try {
    const uid = Number(
      execFileSync('id', ['-u', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(),
    );
    const gid = Number(
      execFileSync('id', ['-g', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(),
    );
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : null;
  } catch {
    return null;
  }
}
