import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { TEST_ADMIN_TOKEN, TestService } from '../../support/test-service';

const REPO_ROOT = resolve(__dirname, '../../..');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Exactly what an operator types: `npm run --silent cli -- partner configure ...`. */
const npmCli = (args: readonly string[], env: Record<string, string>): Promise<Run> =>
  new Promise((done, fail) => {
    const child = spawn('npm', ['run', '--silent', 'cli', '--', ...args], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? REPO_ROOT, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });

describe('operator CLI: partner configure', () => {
  let service: TestService;
  let env: Record<string, string>;

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres' });
    env = { SERVICE_URL: service.url, ADMIN_TOKEN: TEST_ADMIN_TOKEN };
  });
  afterAll(async () => {
    await service.close();
  });

  const configure = (partnerId: string, ...options: string[]) =>
    npmCli(['partner', 'configure', partnerId, ...options], env);

  const json = (run: Run): Record<string, any> => {
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    return JSON.parse(run.stdout);
  };

  it('setting the first webhook URL prints JSON with the new webhook_secret; later changes print no secret; a rotation prints the new one', async () => {
    const { partnerId, sandboxKey } = await service.createPartner('IN', 'CLI Partner');

    const first = json(
      await configure(partnerId, '--environment', 'sandbox', '--webhook-url', 'http://93.184.215.14:9/hooks'),
    );
    expect(first).toMatchObject({
      partner_id: partnerId,
      environment: 'sandbox',
      webhook_url: 'http://93.184.215.14:9/hooks',
      webhook_secret_set: true,
      webhook_secret: expect.stringMatching(/\S{24,}/),
    });

    const limited = json(
      await configure(
        partnerId,
        '--environment',
        'sandbox',
        '--rate-limit',
        '30',
        '--ip-allowlist',
        '127.0.0.1,2001:db8::/32',
      ),
    );
    expect(limited).not.toHaveProperty('webhook_secret');
    expect(limited).toMatchObject({
      rate_limit_per_minute: 30,
      ip_allowlist: ['127.0.0.1/32', '2001:db8::/32'],
      webhook_secret_set: true,
    });

    const rotated = json(await configure(partnerId, '--environment', 'sandbox', '--rotate-webhook-secret'));
    expect(rotated.webhook_secret).toEqual(expect.any(String));
    expect(rotated.webhook_secret).not.toBe(first.webhook_secret);
    expect(rotated.previous_webhook_secret_valid_until).toEqual(expect.any(String));

    // What the partner sees afterwards: the settings, never a secret.
    const seen = await service.partner('GET', '/settings', sandboxKey);
    expect(seen.body).toMatchObject({ rate_limit_per_minute: 30, webhook_url: 'http://93.184.215.14:9/hooks' });
    expect(seen.body).not.toHaveProperty('webhook_secret');
  });

  it('live settings are separate: an https URL creates a live secret, an http URL is refused', async () => {
    const { partnerId } = await service.createPartner('IN', 'CLI Live Partner');
    const live = json(
      await configure(partnerId, '--environment', 'live', '--webhook-url', 'https://hooks.example.com/recharge'),
    );
    expect(live).toMatchObject({ environment: 'live', webhook_secret: expect.any(String) });

    const refused = await configure(
      partnerId,
      '--environment',
      'live',
      '--webhook-url',
      'http://hooks.example.com/recharge',
    );
    expect(refused.code).not.toBe(0);
    expect(`${refused.stdout}${refused.stderr}`).toMatch(/validation_failed/);
    expect(`${refused.stdout}${refused.stderr}`).toMatch(/https/);
  });

  it('an empty allowlist clears it, and an empty webhook URL removes it without printing a secret', async () => {
    const { partnerId } = await service.createPartner('IN', 'CLI Clearing Partner');
    json(
      await configure(
        partnerId,
        '--environment',
        'sandbox',
        '--webhook-url',
        'http://93.184.215.14:9/hooks',
        '--ip-allowlist',
        '10.0.0.0/8',
      ),
    );
    const cleared = json(
      await configure(partnerId, '--environment', 'sandbox', '--webhook-url', '', '--ip-allowlist', ''),
    );
    expect(cleared).toMatchObject({ webhook_url: null, ip_allowlist: [] });
    expect(cleared).not.toHaveProperty('webhook_secret');
  });

  it('a missing --environment or a malformed value is a usage error and nothing is sent', async () => {
    const { partnerId } = await service.createPartner('IN', 'CLI Usage Partner');
    for (const options of [
      ['--rate-limit', '5'],
      ['--environment', 'staging'],
      ['--environment', 'sandbox', '--rate-limit', 'many'],
    ]) {
      const run = await configure(partnerId, ...options);
      expect(run.code).not.toBe(0);
      expect(run.stdout).toBe('');
    }
    expect((await service.admin('GET', `/partners/${partnerId}`)).status).toBe(200);
  });
});
