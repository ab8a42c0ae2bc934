import { request } from 'node:http';
import { BENCH_ADMIN_TOKEN } from './service';

export interface BenchPartner {
  partnerId: string;
  key: string;
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
  text: string;
}

async function call(
  url: string,
  method: string,
  path: string,
  token: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: Record<string, unknown>;
  try {
    parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    parsed = {};
  }
  return { status: response.status, body: parsed, text };
}

function expect(answer: Answer, status: number, what: string): Answer {
  if (answer.status !== status)
    throw new Error(`${what}: expected ${status}, got ${answer.status} ${answer.text.slice(0, 500)}`);
  return answer;
}

export const admin = {
  /** Onboards an IN partner, lifts its sandbox rate limit and funds its sandbox wallet. */
  async partner(url: string, name: string, fund = '100000000.00'): Promise<BenchPartner> {
    const created = expect(
      await call(url, 'POST', '/v1/admin/partners', BENCH_ADMIN_TOKEN, { name, corridor: 'IN' }),
      201,
      'create partner',
    );
    const partner = { partnerId: String(created.body.partner_id), key: String(created.body.sandbox_api_key) };
    expect(
      await call(url, 'PATCH', `/v1/admin/partners/${partner.partnerId}/settings`, BENCH_ADMIN_TOKEN, {
        environment: 'sandbox',
        rate_limit: 100_000,
      }),
      200,
      'lift rate limit',
    );
    expect(
      await call(url, 'POST', `/v1/admin/partners/${partner.partnerId}/wallet-credits`, BENCH_ADMIN_TOKEN, {
        environment: 'sandbox',
        amount: fund,
        reference: `bench funding ${name}`,
      }),
      200,
      'fund wallet',
    );
    return partner;
  },

  async partners(url: string, prefix: string, count: number, parallel = 8): Promise<BenchPartner[]> {
    const result: BenchPartner[] = new Array(count);
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(parallel, count) }, async () => {
        for (let index = next++; index < count; index = next++)
          result[index] = await admin.partner(url, `${prefix} ${index + 1}`);
      }),
    );
    return result;
  },

  async balance(url: string, key: string): Promise<string> {
    const answer = expect(await call(url, 'GET', '/v1/partner/balance', key), 200, 'balance');
    return String(answer.body.available);
  },

  async topup(url: string, key: string, idempotencyKey: string): Promise<Answer> {
    return call(url, 'POST', '/v1/partner/topup', key, TOPUP_BODY, { 'idempotency-key': idempotencyKey });
  },

  /** Through node:http: fetch gives up on an answer whose headers take more than 5 minutes, and verify over a million orders can. */
  verify(url: string, timeoutMs: number): Promise<{ status: number; body: Record<string, unknown> }> {
    return new Promise((resolve, reject) => {
      const call = request(
        `${url}/v1/admin/verify`,
        { headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}` }, timeout: timeoutMs },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
            }),
          );
          response.on('error', reject);
        },
      );
      call.on('timeout', () => call.destroy(new Error(`verify did not answer within ${timeoutMs} ms`)));
      call.on('error', reject);
      call.end();
    });
  },
};

/** A sandbox topup whose 0001 number settles at once in the background. */
export const TOPUP_BODY = { operator_id: 101, phone: '+919876540001', amount: 10 };
