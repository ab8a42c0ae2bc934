import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { embeddedSocketConnectionString } from '../../../src/infrastructure/sql/embedded/server-endpoint';
import { isProcessAlive } from '../../../src/infrastructure/sql/embedded/process-alive';
import { ServiceProcess } from '../../support/service-process';
import { SANDBOX_PHONES, TEST_ADMIN_TOKEN, TEST_KEY_SECRET } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

/*
 * The embedded mode as an operator runs it: `node src/main.ts` with EVENT_STORE=embedded starts its
 * own PostgreSQL server in DATA_DIR, and owns its lifecycle across clean stops, SIGKILL and a second
 * service started on the same folder.
 */
jest.setTimeout(SERVICE_START_TIMEOUT_MS * 2);

const postmasterPid = (dataDir: string): number | null => {
  const file = join(dataDir, 'postgres', 'postmaster.pid');
  return existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : null;
};

async function serverSetting(dataDir: string, name: string): Promise<string> {
  const client = new Client({ connectionString: embeddedSocketConnectionString(dataDir) ?? '' });
  await client.connect();
  try {
    return (await client.query<Record<string, string>>(`SHOW ${name}`)).rows[0][name];
  } finally {
    await client.end();
  }
}

async function admin(
  service: ServiceProcess,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${service.url}/v1/admin${path}`, {
    method,
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: await response.json().catch(() => undefined) };
}

describe('the embedded PostgreSQL server of EVENT_STORE=embedded', () => {
  let dataDir: string;
  const env = (): Record<string, string> => ({
    EVENT_STORE: 'embedded',
    DATA_DIR: dataDir,
    API_KEY_SECRET: TEST_KEY_SECRET,
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    LOG_LEVEL: 'info',
  });
  const running: ServiceProcess[] = [];
  const start = async (name: string, extra: Record<string, string> = {}): Promise<ServiceProcess> => {
    const service = await ServiceProcess.start(name, { ...env(), ...extra }, SERVICE_START_TIMEOUT_MS);
    running.push(service);
    return service;
  };

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'svc-embedded-'));
  });
  afterAll(async () => {
    for (const service of running) await service.stop();
    const leftover = postmasterPid(dataDir);
    if (leftover && isProcessAlive(leftover)) process.kill(leftover, 'SIGINT');
    rmSync(dataDir, { recursive: true, force: true });
  });

  let partnerId: string;
  let sandboxKey: string;

  it('creates its cluster in DATA_DIR/postgres on first start, listens on a socket in DATA_DIR only, with every durability setting on', async () => {
    const service = await start('first');
    expect(existsSync(join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true);
    expect(readFileSync(join(dataDir, 'postgres', 'PG_VERSION'), 'utf8').trim()).toBe('17');
    expect(service.output).toContain(
      `listening on the Unix socket ${join(dataDir, 'postgres-socket', '.s.PGSQL.5432')} (no TCP port)`,
    );
    expect(await serverSetting(dataDir, 'listen_addresses')).toBe('');
    for (const setting of ['fsync', 'synchronous_commit', 'full_page_writes', 'data_checksums'])
      expect([setting, await serverSetting(dataDir, setting)]).toEqual([setting, 'on']);
    // Half of PostgreSQL's default, so the service and its server fit the memory target together.
    expect(await serverSetting(dataDir, 'shared_buffers')).toBe('64MB');
    // Autovacuum on and tuned for the workload, so that statistics and cached plans follow the tables' growth.
    for (const [setting, value] of Object.entries({
      autovacuum: 'on',
      autovacuum_naptime: '15s',
      autovacuum_analyze_scale_factor: '0.02',
      autovacuum_vacuum_insert_scale_factor: '0.05',
    }))
      expect([setting, await serverSetting(dataDir, setting)]).toEqual([setting, value]);

    const created = await admin(service, 'POST', '/partners', { name: 'Embedded Lifecycle', corridor: 'SG' });
    expect(created.status).toBe(201);
    ({ partner_id: partnerId, sandbox_api_key: sandboxKey } = created.body);
  });

  it('stops its server on SIGTERM', async () => {
    const service = running.pop()!;
    const server = postmasterPid(dataDir)!;
    expect(isProcessAlive(server)).toBe(true);
    const stopped = await service.stop();
    expect(stopped).toMatchObject({ code: 0, forced: false });
    expect(isProcessAlive(server)).toBe(false);
    expect(existsSync(join(dataDir, 'service.pid'))).toBe(false);
  });

  it('after a SIGKILL of the service, the next start stops the server left running and starts its own, with the data intact', async () => {
    const first = await start('before-kill');
    const topup = await fetch(`${first.url}/v1/partner/topup`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${sandboxKey}`,
        'content-type': 'application/json',
        'idempotency-key': 'embedded-kill-0001',
      },
      body: JSON.stringify({ operator_id: 301, phone: SANDBOX_PHONES.SG('0001'), amount: 10 }),
    });
    expect(topup.status).toBe(200);
    const leftover = postmasterPid(dataDir)!;
    await first.kill();
    running.pop();
    expect(isProcessAlive(leftover)).toBe(true);

    const second = await start('after-kill');
    expect(second.output).toContain(
      `left by an earlier run is still running on ${join(dataDir, 'postgres')} (pid ${leftover})`,
    );
    expect(isProcessAlive(leftover)).toBe(false);
    const balance = await fetch(`${second.url}/v1/partner/balance`, {
      headers: { authorization: `Bearer ${sandboxKey}` },
    });
    expect(await balance.json()).toMatchObject({ available: '990.00', currency: 'SGD' });
  });

  it('a second service on the same DATA_DIR is refused, and the first keeps its server', async () => {
    const first = running[running.length - 1];
    const server = postmasterPid(dataDir)!;
    await expect(ServiceProcess.start('intruder', env(), SERVICE_START_TIMEOUT_MS)).rejects.toThrow(
      /another service \(pid \d+\) is running on/,
    );
    expect(postmasterPid(dataDir)).toBe(server);
    expect(isProcessAlive(server)).toBe(true);
    expect((await fetch(`${first.url}/health`)).status).toBe(200);
    expect((await admin(first, 'GET', `/partners/${partnerId}`)).status).toBe(200);
  });

  it('runs several processes with a background thread each, sharing the server the first process started', async () => {
    await running.pop()!.stop();
    const group = await start('group', { HTTP_PROCESSES: '2', BACKGROUND_WORK: 'thread' });
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        fetch(`${group.url}/v1/partner/topup`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${sandboxKey}`,
            'content-type': 'application/json',
            'idempotency-key': `embedded-group-000${i}`,
          },
          body: JSON.stringify({ operator_id: 301, phone: SANDBOX_PHONES.SG('0001'), amount: 10 }),
        }).then((response) => response.status),
      ),
    );
    expect(answers).toEqual([200, 200, 200, 200, 200, 200]);
    const server = postmasterPid(dataDir)!;
    expect(await group.stop()).toMatchObject({ code: 0, forced: false });
    running.pop();
    expect(isProcessAlive(server)).toBe(false);
  });
});
