import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeAdminService } from '../../support/fake-admin-service';
import { CliRun, runCli } from '../../support/run-cli';

let service: FakeAdminService;
let scratch: string;

beforeAll(async () => {
  service = await FakeAdminService.start();
  scratch = mkdtempSync(join(tmpdir(), 'cli-spec-'));
});

afterAll(async () => {
  await service.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Points DATA_DIR at an empty directory so a stray ./data/admin-token can never leak into a test. */
const envFor = (token: string | undefined): Record<string, string | undefined> => ({
  SERVICE_URL: service.url,
  ADMIN_TOKEN: token,
  DATA_DIR: join(scratch, 'no-such-dir'),
});

const expectOneJsonLine = (text: string): unknown => {
  expect(text.endsWith('\n')).toBe(true);
  expect(text.slice(0, -1)).not.toContain('\n');
  return JSON.parse(text);
};

const expectUsageError = (run: CliRun): void => {
  expect(run.code).toBe(2);
  expect(run.stdout).toBe('');
  expect(run.stderr).toContain('Usage: npm run --silent cli -- <command>');
};

describe('operator CLI', () => {
  const commands = [
    {
      args: ['partner', 'create', '--name', 'Acme Mobile', '--corridor', 'IN'],
      method: 'POST',
      path: '/v1/admin/partners',
      body: { name: 'Acme Mobile', corridor: 'IN' },
      reply: { partner_id: 'p_1', sandbox_api_key: 'sk_sandbox_1' },
    },
    {
      args: ['partner', 'kyc', 'p_1', '--status', 'approved'],
      method: 'POST',
      path: '/v1/admin/partners/p_1/kyc',
      body: { status: 'approved' },
      reply: { partner_id: 'p_1', live_api_key: 'sk_live_1' },
    },
    {
      args: ['partner', 'show', 'p_1'],
      method: 'GET',
      path: '/v1/admin/partners/p_1',
      reply: { partner_id: 'p_1', kyc_status: 'approved' },
    },
    {
      args: ['key', 'regenerate', 'p_1', '--environment', 'live'],
      method: 'POST',
      path: '/v1/admin/partners/p_1/keys/regenerate',
      body: { environment: 'live' },
      reply: { api_key: 'sk_live_2', environment: 'live' },
    },
    {
      args: ['wallet', 'credit', 'p_1', '--environment', 'sandbox', '--amount', '10.10', '--reference', 'TOPUP 7'],
      method: 'POST',
      path: '/v1/admin/partners/p_1/wallet-credits',
      body: { environment: 'sandbox', amount: '10.10', reference: 'TOPUP 7' },
      reply: { available: '10.10' },
    },
    {
      args: ['order', 'list', '--held', '--limit', '5'],
      method: 'GET',
      path: '/v1/admin/orders?held=true&limit=5',
      reply: { orders: [] },
    },
    {
      args: ['order', 'list', '--limit', '20'],
      method: 'GET',
      path: '/v1/admin/orders?limit=20',
      reply: { orders: [] },
    },
    { args: ['order', 'list'], method: 'GET', path: '/v1/admin/orders', reply: { orders: [] } },
    {
      args: [
        'order',
        'list',
        '--partner',
        'p_1',
        '--status',
        'DISPUTED',
        '--from',
        '2026-03-01',
        '--to',
        '2026-03-31',
        '--phone',
        '+919876540005',
        '--consumer-number',
        '1234560001',
      ],
      method: 'GET',
      path: '/v1/admin/orders?partner_id=p_1&status=DISPUTED&created_from=2026-03-01&created_to=2026-04-01&phone=%2B919876540005&consumer_number=1234560001',
      reply: { orders: [] },
    },
    {
      args: ['partner', 'list', '--search', 'acme', '--kyc', 'pending'],
      method: 'GET',
      path: '/v1/admin/partners?q=acme&kyc_status=pending',
      reply: { partners: [] },
    },
    { args: ['partner', 'list'], method: 'GET', path: '/v1/admin/partners', reply: { partners: [] } },
    { args: ['job', 'backlog'], method: 'GET', path: '/v1/admin/jobs', reply: { open: 0, kinds: [] } },
    { args: ['order', 'show', 'o_9'], method: 'GET', path: '/v1/admin/orders/o_9', reply: { order_id: 'o_9' } },
    {
      args: ['order', 'resolve', 'o_9', '--outcome', 'failed', '--reason', 'operator confirmed no delivery'],
      method: 'POST',
      path: '/v1/admin/orders/o_9/resolve',
      body: { outcome: 'failed', reason: 'operator confirmed no delivery' },
      reply: { order_id: 'o_9', status: 'FAILED' },
    },
    { args: ['verify'], method: 'GET', path: '/v1/admin/verify', reply: { ok: true, checked: 3 } },
    {
      args: ['operator', 'create', '--name', 'ops.asha', '--role', 'finance', '--expires-in-days', '30'],
      method: 'POST',
      path: '/v1/admin/operators',
      body: { name: 'ops.asha', role: 'finance', expires_in_days: 30 },
      reply: { operator_id: 'opr_1', token: 'op_x' },
    },
    {
      args: ['operator', 'create', '--name', 'ops.asha', '--role', 'operator'],
      method: 'POST',
      path: '/v1/admin/operators',
      body: { name: 'ops.asha', role: 'operator' },
      reply: { operator_id: 'opr_2', token: 'op_y' },
    },
    { args: ['operator', 'list'], method: 'GET', path: '/v1/admin/operators', reply: { operators: [] } },
    {
      args: ['operator', 'revoke', 'ops.asha', '--reason', 'left the team'],
      method: 'POST',
      path: '/v1/admin/operators/ops.asha/revoke',
      body: { reason: 'left the team' },
      reply: { revoked: [] },
    },
    { args: ['operator', 'whoami'], method: 'GET', path: '/v1/admin/operators/me', reply: { name: 'ops.asha' } },
    {
      args: ['audit', 'operator', 'ops.asha', '--limit', '5'],
      method: 'GET',
      path: '/v1/admin/audit/operators/ops.asha?limit=5',
      reply: { operator: 'ops.asha', actions: [] },
    },
    {
      args: ['route', 'list'],
      method: 'GET',
      path: '/v1/admin/routes',
      reply: { routed: 0, unrouted: 91, routes: [] },
    },
    { args: ['route', 'history'], method: 'GET', path: '/v1/admin/routes/history', reply: { events: [] } },
    {
      args: ['route', 'set', 'operator', '101', '--provider', 'reloadly', '--upstream-id', '1201'],
      method: 'POST',
      path: '/v1/admin/routes',
      body: { kind: 'operator', id: 101, provider: 'reloadly', upstream_id: '1201' },
      reply: { changed: [] },
    },
    {
      args: ['route', 'remove', 'biller', '1005', '--reason', 'biller withdrawn upstream'],
      method: 'POST',
      path: '/v1/admin/routes/remove',
      body: { kind: 'biller', id: 1005, reason: 'biller withdrawn upstream' },
      reply: { kind: 'biller', id: 1005, removed: true },
    },
    {
      args: ['provider', 'sync', 'reloadly'],
      method: 'POST',
      path: '/v1/admin/providers/reloadly/sync',
      body: { apply: false },
      reply: { proposed: [] },
    },
    {
      args: ['provider', 'sync', 'reloadly', '--apply'],
      method: 'POST',
      path: '/v1/admin/providers/reloadly/sync',
      body: { apply: true },
      reply: { proposed: [] },
    },
    { args: ['provider', 'breakers'], method: 'GET', path: '/v1/admin/providers/breakers', reply: { providers: [] } },
  ];

  test.concurrent.each(commands)('$args', async ({ args, method, path, body, reply }) => {
    const token = service.token({ status: 200, body: JSON.stringify(reply) });

    const run = await runCli(args, envFor(token));

    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(expectOneJsonLine(run.stdout)).toEqual(reply);
    const [request, ...more] = service.requestsFor(token);
    expect(more).toHaveLength(0);
    expect(request).toMatchObject({ method, url: path, authorization: `Bearer ${token}` });
    if (body === undefined) {
      expect(request.rawBody).toBe('');
    } else {
      expect(request.contentType).toBe('application/json');
      expect(JSON.parse(request.rawBody)).toEqual(body);
    }
  });

  test.concurrent('sends the amount exactly as typed and prints the body as the server wrote it', async () => {
    const token = service.token({ status: 201, body: '{"balance":10.10,"big":12345678901234567890}' });

    const run = await runCli(
      ['wallet', 'credit', 'p_1', '--environment', 'live', '--amount', '10.10', '--reference', 'r'],
      envFor(token),
    );

    expect(run.code).toBe(0);
    expect(service.requestsFor(token)[0].rawBody).toContain('"amount":"10.10"');
    expect(run.stdout).toBe('{"balance":10.10,"big":12345678901234567890}\n');
  });

  test.concurrent(
    'provider reconcile runs one day (a POST: it records) and writes the report as the service sends it (a page with --format html)',
    async () => {
      const page = '<!DOCTYPE html><title>Reconciliation</title>';
      const token = service.token({ status: 200, body: page });

      const run = await runCli(
        ['provider', 'reconcile', '--date', '2026-11-24', '--provider', 'reloadly', '--format', 'html'],
        envFor(token),
      );

      expect(run).toMatchObject({ code: 0, stderr: '', stdout: page });
      expect(service.requestsFor(token)).toEqual([
        expect.objectContaining({
          method: 'POST',
          url: '/v1/admin/providers/reconciliation?format=html',
          rawBody: '{"date":"2026-11-24","provider":"reloadly"}',
        }),
      ]);
    },
  );

  test.concurrent('prints a multi-line body as one line', async () => {
    const token = service.token({ status: 200, body: '{\n  "ok": true,\n  "checked": 2\n}\n' });

    const run = await runCli(['verify'], envFor(token));

    expect(run.code).toBe(0);
    expect(run.stdout).toBe('{"ok":true,"checked":2}\n');
  });

  test.concurrent('prints an error response on stderr and exits 1', async () => {
    const error = '{"error":"not_found","detail":"no order o_404"}';
    const token = service.token({ status: 404, body: error });

    const run = await runCli(['order', 'show', 'o_404'], envFor(token));

    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`${error}\n`);
  });

  test.concurrent('verify exits 1 with the breaches on stderr when invariants are broken', async () => {
    const breach = { error: 'invariant_breach', detail: '1 breach', breaches: [{ partner_id: 'p_1' }] };
    const token = service.token({ status: 409, body: JSON.stringify(breach) });

    const run = await runCli(['verify'], envFor(token));

    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(expectOneJsonLine(run.stderr)).toEqual(breach);
  });

  test.concurrent('wraps a non-JSON error body in the error shape', async () => {
    const token = service.token({ status: 502, body: '<html>Bad Gateway</html>' });

    const run = await runCli(['verify'], envFor(token));

    expect(run.code).toBe(1);
    expect(expectOneJsonLine(run.stderr)).toEqual({ error: 'http_502', detail: '<html>Bad Gateway</html>' });
  });

  test.concurrent('reads the token from DATA_DIR/admin-token when ADMIN_TOKEN is unset', async () => {
    const dataDir = join(scratch, 'explicit-data');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'admin-token'), '  file-token-1 \n');

    const run = await runCli(['partner', 'show', 'p_1'], { SERVICE_URL: service.url, DATA_DIR: dataDir });

    expect(run.code).toBe(0);
    expect(service.requestsFor('file-token-1')).toHaveLength(1);
  });

  test.concurrent('defaults DATA_DIR to ./data under the working directory', async () => {
    const cwd = join(scratch, 'operator-cwd');
    mkdirSync(join(cwd, 'data'), { recursive: true });
    writeFileSync(join(cwd, 'data', 'admin-token'), 'file-token-2\n');

    const run = await runCli(['verify'], { SERVICE_URL: service.url }, { cwd });

    expect(run.code).toBe(0);
    expect(service.requestsFor('file-token-2')).toHaveLength(1);
  });

  test.concurrent('prefers ADMIN_TOKEN over the token file', async () => {
    const dataDir = join(scratch, 'ignored-data');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'admin-token'), 'file-token-3\n');
    const token = service.token();

    const run = await runCli(['verify'], { SERVICE_URL: service.url, ADMIN_TOKEN: token, DATA_DIR: dataDir });

    expect(run.code).toBe(0);
    expect(service.requestsFor(token)).toHaveLength(1);
    expect(service.requestsFor('file-token-3')).toHaveLength(0);
  });

  test.concurrent("prefers the operator's own OPERATOR_TOKEN over ADMIN_TOKEN and the token file", async () => {
    const dataDir = join(scratch, 'operator-token-data');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'admin-token'), 'file-token-4\n');
    const operatorToken = service.token();
    const breakGlass = service.token();

    const run = await runCli(['verify'], {
      SERVICE_URL: service.url,
      OPERATOR_TOKEN: operatorToken,
      ADMIN_TOKEN: breakGlass,
      DATA_DIR: dataDir,
    });

    expect(run.code).toBe(0);
    expect(service.requestsFor(operatorToken)).toHaveLength(1);
    expect(service.requestsFor(breakGlass)).toHaveLength(0);
    expect(service.requestsFor('file-token-4')).toHaveLength(0);
  });

  test.concurrent('exits 2 explaining ADMIN_TOKEN when there is no token anywhere', async () => {
    const run = await runCli(['verify'], envFor(undefined));

    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('ADMIN_TOKEN');
    expect(service.requestsFor('')).toHaveLength(0);
  });

  test.concurrent('exits 3 naming SERVICE_URL when the service is not running', async () => {
    const stopped = await FakeAdminService.start();
    await stopped.close();

    const run = await runCli(['verify'], { ...envFor('t'), SERVICE_URL: stopped.url });

    expect(run.code).toBe(3);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`SERVICE_URL=${stopped.url}`);
  });

  test.concurrent('--help prints usage on stdout and exits 0, run through tsx like `npm run cli`', async () => {
    const run = await runCli(['--help'], envFor(undefined), { launcher: 'tsx-cli' });

    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('Usage: npm run --silent cli -- <command>');
    expect(run.stdout).toContain('wallet credit <partner_id>');
  });

  test.concurrent.each([
    [['partner', 'delete', 'p_1']],
    [['partner', 'create', '--name', 'Acme', '--corridor', 'US']],
    [['wallet', 'credit', 'p_1', '--environment', 'live', '--amount', '10.123', '--reference', 'r']],
    [['order', 'resolve', 'o_1', '--outcome', 'success']],
    [['order', 'list', '--held', '--bogus']],
    [['route', 'set', 'shop', '101', '--provider', 'reloadly', '--upstream-id', '1201']],
    [['route', 'set', 'operator', '101', '--provider', 'Reloadly', '--upstream-id', '1201']],
    [['provider', 'reconcile', '--date', '24-11-2026']],
    [['operator', 'create', '--name', 'ops.asha', '--role', 'admin']],
    [['operator', 'create', '--name', 'Ops Asha', '--role', 'finance']],
    [['operator', 'revoke', 'ops.asha']],
  ])('exits 2 with usage on stderr and sends nothing for %j', async (args) => {
    const token = service.token();

    const run = await runCli(args, envFor(token));

    expectUsageError(run);
    expect(service.requestsFor(token)).toHaveLength(0);
  });
});
