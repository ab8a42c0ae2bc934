import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { platform } from 'node:os';
import { dirname, join } from 'node:path';
import { PostgresBinaries } from './postgres-binaries';
import { ServerAccount } from './server-account';
import { CLUSTER_USER, ServerEndpoint } from './server-endpoint';

/** DATA_DIR's PostgreSQL files: the cluster, the socket folder, and the password for a server on loopback (mode 600). */
export class ClusterFolder {
  readonly clusterDir: string;
  private readonly passwordFile: string;

  constructor(
    private readonly dataDir: string,
    private readonly account: ServerAccount,
  ) {
    this.clusterDir = join(dataDir, 'postgres');
    this.passwordFile = join(dataDir, 'postgres-password');
  }

  initialised(): boolean {
    return existsSync(join(this.clusterDir, 'PG_VERSION'));
  }

  version(): string {
    return readFileSync(join(this.clusterDir, 'PG_VERSION'), 'utf8').trim();
  }

  password(): string {
    return readFileSync(this.passwordFile, 'utf8').trim();
  }

  /** initdb into a fresh folder; a folder left half-made by an interrupted first start is made again. */
  async initialise(binaries: PostgresBinaries): Promise<void> {
    this.assertReachableByServerAccount();
    if (existsSync(this.clusterDir)) rmSync(this.clusterDir, { recursive: true, force: true });
    this.ownedFolder(this.clusterDir);
    if (!existsSync(this.passwordFile))
      writeFileSync(this.passwordFile, `${randomBytes(24).toString('base64url')}\n`, { mode: 0o600 });
    const pwfile = join(this.dataDir, '.initdb-password');
    writeFileSync(pwfile, `${this.password()}\n`, { mode: 0o600 });
    this.own(pwfile);
    try {
      await run(
        binaries.initdb,
        [
          `--pgdata=${this.clusterDir}`,
          `--username=${CLUSTER_USER}`,
          `--pwfile=${pwfile}`,
          // Local connections reach a socket in a folder only the server's account (and root) can enter.
          '--auth-local=trust',
          '--auth-host=scram-sha-256',
          '--encoding=UTF8',
          '--locale=C',
          '--data-checksums',
          // One syncfs() of the file system instead of an fsync() per file: the same durability, a faster first start.
          ...(platform() === 'linux' ? ['--sync-method=syncfs'] : []),
        ],
        this.account,
      );
    } finally {
      rmSync(pwfile, { force: true });
    }
  }

  prepareSocketDir(endpoint: ServerEndpoint): void {
    if (endpoint.socketDir) this.ownedFolder(endpoint.socketDir);
  }

  private ownedFolder(path: string): void {
    mkdirSync(path, { recursive: true, mode: 0o700 });
    chmodSync(path, 0o700);
    this.own(path);
  }

  private own(path: string): void {
    if (this.account.uid !== null && this.account.gid !== null) chownSync(path, this.account.uid, this.account.gid);
  }

  /** As root the server runs as another account, which must reach DATA_DIR (not under /root); said plainly rather than as initdb's error. */
  private assertReachableByServerAccount(): void {
    if (this.account.uid === null) return;
    for (let folder = this.dataDir; ; folder = dirname(folder)) {
      const mode = statSync(folder).mode;
      if ((mode & 0o001) === 0) {
        if (folder === this.dataDir) {
          chmodSync(folder, mode | 0o001);
        } else {
          throw new Error(
            `the embedded PostgreSQL server runs as the system account "${this.account.name}" (the service runs as root), ` +
              `which cannot enter ${folder} (mode ${(mode & 0o777).toString(8)}); choose a DATA_DIR outside it, or run the service as an ordinary user`,
          );
        }
      }
      if (dirname(folder) === folder) return;
    }
  }
}

function run(program: string, args: string[], account: ServerAccount): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const child = spawn(program, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LC_MESSAGES: 'C' },
      ...(account.uid !== null && account.gid !== null ? { uid: account.uid, gid: account.gid } : {}),
    });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`initdb failed (code ${code}):\n${output.slice(-4_000)}`)),
    );
  });
}
