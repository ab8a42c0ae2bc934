import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CliRun, runCli } from '../../support/run-cli';
import { TEST_ADMIN_TOKEN, TestService } from '../../support/test-service';

/** The operator CLI in its own process, with only SERVICE_URL, ADMIN_TOKEN and an empty DATA_DIR in its environment. */
const cli = (args: readonly string[], env: Record<string, string>): Promise<CliRun> => runCli(args, env);

/** Exactly one JSON line on stdout, exit 0, nothing on stderr. */
function printedJson(run: CliRun): Record<string, unknown> {
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
  expect(run.stdout.endsWith('\n')).toBe(true);
  expect(run.stdout.slice(0, -1)).not.toContain('\n');
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

describe('the operator CLI against a running service', () => {
  let service: TestService;
  let scratch: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres' });
    scratch = mkdtempSync(join(tmpdir(), 'cli-it-'));
    env = { SERVICE_URL: service.url, ADMIN_TOKEN: TEST_ADMIN_TOKEN, DATA_DIR: join(scratch, 'no-data-here') };
  });
  afterAll(async () => {
    await service.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  let partnerId: string;
  let sandboxKey: string;
  let liveKey: string;

  it('partner create prints one JSON line with the partner id and a sandbox key that works', async () => {
    const printed = printedJson(await cli(['partner', 'create', '--name', 'Acme CLI Mobile', '--corridor', 'BD'], env));
    expect(printed).toEqual({
      partner_id: expect.any(String),
      sandbox_api_key: expect.stringMatching(/^svc_test_[A-Za-z0-9_-]{32}$/),
    });
    partnerId = printed.partner_id as string;
    sandboxKey = printed.sandbox_api_key as string;
    const balance = await service.partner('GET', '/balance', sandboxKey);
    expect(balance.body).toMatchObject({
      available: '1000.00',
      currency: 'BDT',
      corridor: 'BD',
      environment: 'sandbox',
    });
  });

  it('partner kyc --status approved prints the live key, which reads the live wallet', async () => {
    const printed = printedJson(await cli(['partner', 'kyc', partnerId, '--status', 'approved'], env));
    expect(printed).toEqual({
      partner_id: partnerId,
      live_api_key: expect.stringMatching(/^svc_live_[A-Za-z0-9_-]{32}$/),
    });
    liveKey = printed.live_api_key as string;
    expect((await service.partner('GET', '/balance', liveKey)).body).toMatchObject({
      available: '0.00',
      environment: 'live',
    });
  });

  it('key regenerate prints a new key; the old one stops working and the new one works', async () => {
    const printed = printedJson(await cli(['key', 'regenerate', partnerId, '--environment', 'sandbox'], env));
    expect(printed).toEqual({
      partner_id: partnerId,
      environment: 'sandbox',
      api_key: expect.stringMatching(/^svc_test_[A-Za-z0-9_-]{32}$/),
      revoked_restricted_keys: [],
      kept_restricted_keys: [],
    });
    expect((await service.partner('GET', '/balance', sandboxKey)).body).toEqual({
      error: 'invalid_api_key',
      detail: expect.any(String),
    });
    sandboxKey = printed.api_key as string;
    expect((await service.partner('GET', '/balance', sandboxKey)).status).toBe(200);
  });

  it('key create, list and revoke manage a restricted key: shown once, listed with its caps and usage, refused once revoked', async () => {
    // A key made by the back office always has an expiry (docs/decisions/0124-credentials-stay-with-the-partner.md).
    const expiresAt = new Date(Date.now() + 30 * 24 * 3600_000).toISOString();
    const created = printedJson(
      await cli(
        [
          'key',
          'create',
          partnerId,
          '--environment',
          'sandbox',
          '--label',
          'agent',
          '--scope',
          'transact',
          '--per-order-max',
          '100',
          '--daily-max',
          '300.50',
          '--expires-at',
          expiresAt,
        ],
        env,
      ),
    );
    expect(created).toMatchObject({
      label: 'agent',
      scope: 'transact',
      per_order_max: '100.00',
      daily_max: '300.50',
      status: 'active',
    });
    const restricted = created.api_key as string;
    expect((await service.partner('GET', '/balance', restricted)).status).toBe(200);
    const listed = printedJson(await cli(['key', 'list', partnerId, '--environment', 'sandbox'], env));
    expect(listed).toMatchObject({
      environment: 'sandbox',
      keys: [{ key_id: created.key_id, spent_last_24h: '0.00', refusals_last_24h: 0 }],
    });
    expect(JSON.stringify(listed)).not.toContain(restricted);
    expect(printedJson(await cli(['key', 'revoke', partnerId, created.key_id as string], env))).toEqual({
      key_id: created.key_id,
      revoked: true,
    });
    expect((await service.partner('GET', '/balance', restricted)).status).toBe(401);
    expect(
      (
        await cli(
          ['key', 'create', partnerId, '--environment', 'sandbox', '--label', 'x', '--scope', 'everything'],
          env,
        )
      ).code,
    ).not.toBe(0);
  });

  it('wallet credit prints the new available balance, which the partner then sees', async () => {
    const printed = printedJson(
      await cli(
        ['wallet', 'credit', partnerId, '--environment', 'live', '--amount', '2500.50', '--reference', 'wire 77'],
        env,
      ),
    );
    expect(printed).toMatchObject({
      partner_id: partnerId,
      environment: 'live',
      amount: '2500.50',
      available: '2500.50',
      currency: 'BDT',
      reference: 'wire 77',
    });
    expect((await service.partner('GET', '/balance', liveKey)).body.available).toBe('2500.50');
  });

  it('wallet credit --idempotency-key credits once however often it is run', async () => {
    const args = [
      'wallet',
      'credit',
      partnerId,
      '--environment',
      'live',
      '--amount',
      '100.00',
      '--reference',
      'wire 78',
      '--idempotency-key',
      'wire-78-retry',
    ];
    const first = printedJson(await cli(args, env));
    const again = printedJson(await cli(args, env));
    expect(again).toEqual(first);
    expect((await service.partner('GET', '/balance', liveKey)).body.available).toBe('2600.50');
    const refused = await cli(
      [
        'wallet',
        'credit',
        partnerId,
        '--environment',
        'live',
        '--amount',
        '1.00',
        '--reference',
        'x',
        '--idempotency-key',
        'short',
      ],
      env,
    );
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('8 to 255 visible ASCII characters');
  });

  it('partner show prints the partner with its balances and no key', async () => {
    const run = await cli(['partner', 'show', partnerId], env);
    const printed = printedJson(run);
    expect(printed).toMatchObject({
      partner_id: partnerId,
      name: 'Acme CLI Mobile',
      corridor: 'BD',
      kyc_status: 'approved',
      balances: { live: { available: '2600.50', currency: 'BDT' }, sandbox: { available: '1000.00', currency: 'BDT' } },
    });
    expect(run.stdout).not.toContain('svc_');
  });

  it('verify exits 0 when the money invariants hold (a check this quick shows no progress)', async () => {
    const printed = printedJson(await cli(['verify'], env));
    expect(printed).toMatchObject({ ok: true, breaches: [] });
  });

  it('the service answers verify as NDJSON progress and then its answer when asked', async () => {
    const answer = await fetch(`${service.url}/v1/admin/verify`, {
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, accept: 'application/x-ndjson' },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = (await answer.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toEqual({ progress: { step: 'verify', done: expect.any(Number), total: expect.any(Number) } });
    expect(lines[lines.length - 1]).toEqual({ result: { status: 200, body: expect.objectContaining({ ok: true }) } });
  });

  it('an unknown command exits 2 with the usage on stderr', async () => {
    const run = await cli(['partner', 'delete', partnerId], env);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('Usage:');
  });

  it('a refusal by the service exits 1 with its Error body on stderr', async () => {
    const run = await cli(['partner', 'show', 'ptr_nobody'], env);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(JSON.parse(run.stderr)).toEqual({ error: 'not_found', detail: expect.any(String) });
  });

  it('a wrong operator token exits 1 with invalid_admin_token', async () => {
    const run = await cli(['partner', 'show', partnerId], { ...env, ADMIN_TOKEN: 'wrong-token-0123456789abcdef' });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stderr)).toMatchObject({ error: 'invalid_admin_token' });
  });
});
