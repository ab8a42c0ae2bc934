import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceOwnership } from '../../../../../src/infrastructure/sql/embedded/service-ownership';

describe('DATA_DIR/service.pid: one service per embedded data folder', () => {
  let dataDir: string;
  const children: ChildProcess[] = [];
  const running = (command: string, args: string[]): ChildProcess => {
    const child = spawn(command, args, { stdio: 'ignore' });
    children.push(child);
    return child;
  };
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'svc-owner-'));
  });
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is claimed with this process id and released on stop', () => {
    const ownership = ServiceOwnership.claim(dataDir);
    expect(readFileSync(join(dataDir, 'service.pid'), 'utf8').trim()).toBe(String(process.pid));
    ownership.release();
    expect(existsSync(join(dataDir, 'service.pid'))).toBe(false);
  });

  it('refuses a second service while the Node.js process named in the file lives', () => {
    const other = running(process.execPath, ['-e', 'setTimeout(() => undefined, 60000)']);
    writeFileSync(join(dataDir, 'service.pid'), `${other.pid}\n`);
    expect(() => ServiceOwnership.claim(dataDir)).toThrow(
      `another service (pid ${other.pid}) is running on ${dataDir}`,
    );
  });

  it('takes over a file left by a service that died, or whose id now belongs to another program', () => {
    const notNode = running('sleep', ['60']);
    writeFileSync(join(dataDir, 'service.pid'), `${notNode.pid}\n`);
    ServiceOwnership.claim(dataDir).release();

    writeFileSync(join(dataDir, 'service.pid'), '2147483646\n');
    ServiceOwnership.claim(dataDir).release();
  });
});
