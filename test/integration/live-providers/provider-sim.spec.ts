import { ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

const REPO_ROOT = resolve(__dirname, '../../..');

/** `npm run provider-sim` as a program of its own: port and seed from the environment, flags for the rest. */
describe('the provider simulator program', () => {
  let child: ChildProcess | null = null;
  afterEach(() => {
    child?.kill('SIGTERM');
    child = null;
  });

  it('listens where PORT says, takes --balance, and speaks the token, balance and topup protocol', async () => {
    child = spawn(
      process.execPath,
      [
        '--require',
        require.resolve('tsx/cjs'),
        resolve(REPO_ROOT, 'tools/provider-sim/main.ts'),
        '--balance',
        '50.00',
        '--currency',
        'EUR',
      ],
      {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '', PORT: '0', SEED: '5' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const url = await new Promise<string>((done, fail) => {
      let out = '';
      child!.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        const match = /listening on (http:\/\/\S+)/.exec(out);
        if (match) done(match[1]);
      });
      child!.on('exit', (code) => fail(new Error(`the simulator exited (${code}): ${out}`)));
    });

    const token = await fetch(`${url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: 'any',
        client_secret: 'any',
        grant_type: 'client_credentials',
        audience: `${url}/airtime`,
      }),
    }).then((answer) => answer.json() as Promise<{ access_token: string; expires_in: number; token_type: string }>);
    expect(token).toMatchObject({ access_token: expect.any(String), expires_in: 3600, token_type: 'Bearer' });
    const headers = {
      authorization: `Bearer ${token.access_token}`,
      accept: 'application/com.reloadly.topups-v1+json',
      'content-type': 'application/json',
    };

    expect(await (await fetch(`${url}/airtime/accounts/balance`, { headers })).json()).toMatchObject({
      balance: 50,
      currencyCode: 'EUR',
    });
    const body = JSON.stringify({
      operatorId: 1601,
      amount: 10,
      useLocalAmount: true,
      customIdentifier: 'program-check',
      recipientPhone: { countryCode: 'SG', number: '81230001' },
    });
    const sent = await fetch(`${url}/airtime/topups`, { method: 'POST', headers, body });
    expect(sent.status).toBe(200);
    expect(await sent.json()).toMatchObject({
      status: 'SUCCESSFUL',
      customIdentifier: 'program-check',
      transactionId: 15000,
    });
    const again = await fetch(`${url}/airtime/topups`, { method: 'POST', headers, body });
    expect(again.status).toBe(409);
    // The utilities API refuses a token issued for the airtime audience.
    expect((await fetch(`${url}/utilities/accounts/balance`, { headers })).status).toBe(401);

    // Its clock moves forward when told, and only forward.
    const before = Date.parse(((await (await fetch(`${url}/__sim/state`)).json()) as { now: string }).now);
    const moved = await fetch(`${url}/__sim/clock`, { method: 'POST', body: JSON.stringify({ advanceMs: 3_600_000 }) });
    expect(Date.parse(((await moved.json()) as { now: string }).now) - before).toBeGreaterThanOrEqual(3_600_000);
    const back = await fetch(`${url}/__sim/clock`, { method: 'POST', body: JSON.stringify({ advanceMs: -1 }) });
    expect(back.status).toBe(400);
  });
});
