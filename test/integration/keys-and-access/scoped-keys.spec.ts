import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BackgroundProcessing } from '../../../src/infrastructure/processing/background-processing';
import { startTwoServices, stopTwoServices, TwoServices } from '../../support/two-services';
import { HttpAnswer, SANDBOX_PHONES, TestService } from '../../support/test-service';

const topupOf = (amount: number, suffix = '0001') => ({ operator_id: 101, phone: SANDBOX_PHONES.IN(suffix), amount });

const expectError = (answer: HttpAnswer, status: number, code: string): void => {
  expect({ status: answer.status, body: answer.body }).toEqual({
    status,
    body: { error: code, detail: expect.any(String) },
  });
};

describe('restricted API keys and dry runs', () => {
  let service: TestService;
  const opened: Client[] = [];

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres' });
  });
  afterAll(async () => {
    await Promise.all(opened.splice(0).map((mcp) => mcp.close()));
    await service.close();
  });

  const balance = async (key: string): Promise<string> =>
    (await service.partner('GET', '/balance', key)).body.available;
  const transactions = async (key: string): Promise<unknown[]> =>
    (await service.partner('GET', '/transactions?limit=50', key)).body.transactions;
  const createKey = (mainKey: string, body: Record<string, unknown>) => service.partner('POST', '/keys', mainKey, body);
  const listKeys = async (mainKey: string): Promise<any[]> =>
    (await service.partner('GET', '/keys', mainKey)).body.keys;

  async function partnerWith(
    body: Record<string, unknown>,
  ): Promise<{ partnerId: string; mainKey: string; key: string; keyId: string }> {
    const { partnerId, sandboxKey } = await service.createPartner('IN');
    const created = await createKey(sandboxKey, { label: 'agent', ...body });
    expect(created.status).toBe(201);
    return { partnerId, mainKey: sandboxKey, key: created.body.api_key, keyId: created.body.key_id };
  }

  async function mcpClient(token: string): Promise<Client> {
    const mcp = new Client({ name: 'scoped-keys-spec', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${service.url}/v1/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    opened.push(mcp);
    return mcp;
  }

  describe('creating and listing keys', () => {
    it('the main key creates a restricted sandbox key, shown once, and lists it with its terms but never the key', async () => {
      const { sandboxKey } = await service.createPartner('IN');
      const created = await createKey(sandboxKey, {
        label: 'support agent',
        scope: 'transact',
        per_order_max: '200.00',
        daily_max: '500',
      });
      expect(created.status).toBe(201);
      expect(created.body.api_key).toMatch(/^svc_test_[A-Za-z0-9_-]{32}$/);
      expect(created.body).toMatchObject({
        label: 'support agent',
        scope: 'transact',
        per_order_max: '200.00',
        daily_max: '500.00',
        currency: 'INR',
        status: 'active',
      });
      const [listed] = await listKeys(sandboxKey);
      expect(listed).toEqual({ ...created.body, api_key: undefined, spent_last_24h: '0.00', refusals_last_24h: 0 });
      expect(JSON.stringify(await listKeys(sandboxKey))).not.toContain(created.body.api_key);
      // The restricted key works for reads.
      expect((await service.partner('GET', '/balance', created.body.api_key)).status).toBe(200);
    });

    it('a restricted key can neither create, list nor revoke keys, nor change settings, and each refusal shows in its usage', async () => {
      const { mainKey, key, keyId } = await partnerWith({ scope: 'transact', daily_max: '500.00' });
      expectError(await createKey(key, { label: 'another', scope: 'read_only' }), 403, 'scope_forbidden');
      expectError(await service.partner('GET', '/keys', key), 403, 'scope_forbidden');
      expectError(await service.partner('DELETE', `/keys/${keyId}`, key), 403, 'scope_forbidden');
      expectError(
        await service.partner('PATCH', '/settings', key, { rate_limit_per_minute: 100 }),
        403,
        'scope_forbidden',
      );
      expectError(await service.partner('POST', '/settings/webhook-secret/rotate', key), 403, 'scope_forbidden');
      expect((await listKeys(mainKey))[0]).toMatchObject({ key_id: keyId, refusals_last_24h: 5 });
    });

    it('refuses caps on a read-only key, a cap in the wrong form, and an expiry in the past', async () => {
      const { sandboxKey } = await service.createPartner('IN');
      expectError(
        await createKey(sandboxKey, { label: 'x', scope: 'read_only', daily_max: '10.00' }),
        400,
        'validation_failed',
      );
      expectError(
        await createKey(sandboxKey, { label: 'x', scope: 'transact', daily_max: 10 }),
        400,
        'validation_failed',
      );
      expectError(
        await createKey(sandboxKey, { label: 'x', scope: 'transact', per_order_max: '600.00', daily_max: '500.00' }),
        400,
        'validation_failed',
      );
      const past = new Date(service.clock.now().getTime() - 1000).toISOString();
      expectError(
        await createKey(sandboxKey, { label: 'x', scope: 'transact', expires_at: past }),
        400,
        'validation_failed',
      );
      expect(await listKeys(sandboxKey)).toEqual([]);
    });

    it('the back office creates, lists and revokes the same keys', async () => {
      const { partnerId, sandboxKey } = await service.createPartner('IN');
      const created = await service.admin('POST', `/partners/${partnerId}/keys`, {
        environment: 'sandbox',
        label: 'staff',
        scope: 'read_only',
        expires_at: '2099-01-01T00:00:00Z',
      });
      expect(created.status).toBe(201);
      const listed = await service.admin('GET', `/partners/${partnerId}/keys?environment=sandbox`);
      expect(listed.body.keys.map((key: any) => key.key_id)).toEqual([created.body.key_id]);
      expect((await listKeys(sandboxKey)).map((key) => key.key_id)).toEqual([created.body.key_id]);
      expect((await service.admin('DELETE', `/partners/${partnerId}/keys/${created.body.key_id}`)).status).toBe(200);
      expectError(await service.partner('GET', '/balance', created.body.api_key), 401, 'invalid_api_key');
    });
  });

  describe('scope and caps', () => {
    it('a read-only key is refused a topup with 403 scope_forbidden, no money moves, and the refusal shows in its usage', async () => {
      const { mainKey, key } = await partnerWith({ scope: 'read_only' });
      expectError(await service.topup(key, topupOf(100), 'read-only-0001'), 403, 'scope_forbidden');
      await service.settle();
      expect(await balance(mainKey)).toBe('1000.00');
      expect(await transactions(mainKey)).toEqual([]);
      expect((await listKeys(mainKey))[0]).toMatchObject({ spent_last_24h: '0.00', refusals_last_24h: 1 });
    });

    it('an order above the per-order maximum is refused with 403 key_cap_exceeded and moves no money', async () => {
      const { mainKey, key } = await partnerWith({ scope: 'transact', per_order_max: '150.00' });
      expectError(await service.topup(key, topupOf(150.01), 'per-order-0001'), 403, 'key_cap_exceeded');
      expect(await balance(mainKey)).toBe('1000.00');
      expect((await service.topup(key, topupOf(150), 'per-order-0002')).status).toBe(200);
      expect(await balance(mainKey)).toBe('850.00');
      // The main key is not bound by a restricted key's caps.
      expect((await service.topup(mainKey, topupOf(400), 'per-order-0003')).status).toBe(200);
    });

    it('two concurrent topups that together exceed the daily maximum: exactly one is refused', async () => {
      const { mainKey, key } = await partnerWith({ scope: 'transact', daily_max: '500.00' });
      const answers = await Promise.all([
        service.topup(key, topupOf(300), 'daily-race-1'),
        service.topup(key, topupOf(300), 'daily-race-2'),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 403]);
      expectError(
        answers.find((answer) => answer.status === 403)!,
        403,
        'key_cap_exceeded',
      );
      expect(await balance(mainKey)).toBe('700.00');
      expect((await listKeys(mainKey))[0]).toMatchObject({ spent_last_24h: '300.00', refusals_last_24h: 1 });
    });

    it('many concurrent topups stop exactly at the daily maximum', async () => {
      const { mainKey, key } = await partnerWith({ scope: 'transact', daily_max: '450.00' });
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) => service.topup(key, topupOf(50), `daily-many-${i}`)),
      );
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(9);
      expect(answers.filter((answer) => answer.status === 403)).toHaveLength(3);
      expect(await balance(mainKey)).toBe('550.00');
    });

    it('the daily maximum rolls: spend older than 24 hours no longer counts', async () => {
      const { key } = await partnerWith({ scope: 'transact', daily_max: '200.00' });
      expect((await service.topup(key, topupOf(200), 'rolling-0001')).status).toBe(200);
      expectError(await service.topup(key, topupOf(10), 'rolling-0002'), 403, 'key_cap_exceeded');
      await service.advance(24 * 60 * 60 * 1000 + 1000);
      expect((await service.topup(key, topupOf(10), 'rolling-0003')).status).toBe(200);
    });

    it('a failed and refunded order gives its amount back to the daily maximum', async () => {
      const { mainKey, key } = await partnerWith({ scope: 'transact', daily_max: '300.00' });
      expect((await service.topup(key, topupOf(250, '0002'), 'refund-cap-0001')).status).toBe(200);
      await service.settle();
      expect(await balance(mainKey)).toBe('1000.00');
      expect((await listKeys(mainKey))[0].spent_last_24h).toBe('0.00');
      expect((await service.topup(key, topupOf(250), 'refund-cap-0002')).status).toBe(200);
    });

    it('refusals count for 24 hours in the usage, and the retention purge drops them after two days', async () => {
      const { mainKey, key } = await partnerWith({ scope: 'read_only' });
      expectError(await service.topup(key, topupOf(100), 'refusal-age-0001'), 403, 'scope_forbidden');
      expect((await listKeys(mainKey))[0].refusals_last_24h).toBe(1);
      await service.advance(24 * 60 * 60 * 1000);
      expect((await listKeys(mainKey))[0].refusals_last_24h).toBe(0);
      await service.advance(24 * 60 * 60 * 1000 + 1000);
      expect((await service.app.get(BackgroundProcessing).purgeRetained()).keyRefusals).toBeGreaterThanOrEqual(1);
    });

    it('an expired key is refused with 401 invalid_api_key', async () => {
      const expiresAt = new Date(service.clock.now().getTime() + 60 * 60 * 1000).toISOString();
      const { mainKey, key } = await partnerWith({ scope: 'read_only', expires_at: expiresAt });
      expect((await service.partner('GET', '/balance', key)).status).toBe(200);
      await service.advance(60 * 60 * 1000);
      expectError(await service.partner('GET', '/balance', key), 401, 'invalid_api_key');
      expect((await listKeys(mainKey))[0].status).toBe('expired');
      expect((await service.partner('GET', '/balance', mainKey)).status).toBe(200);
    });

    it('a revoked key is refused from the revocation answer on; the main key keeps working', async () => {
      const { mainKey, key, keyId } = await partnerWith({ scope: 'transact' });
      expect((await service.partner('DELETE', `/keys/${keyId}`, mainKey)).body).toEqual({
        key_id: keyId,
        revoked: true,
      });
      expectError(await service.topup(key, topupOf(100), 'revoked-0001'), 401, 'invalid_api_key');
      expect((await listKeys(mainKey))[0].status).toBe('revoked');
      expect((await service.topup(mainKey, topupOf(100), 'revoked-0002')).status).toBe(200);
      expectError(await service.partner('DELETE', '/keys/key_unknown', mainKey), 404, 'not_found');
    });

    it('MCP applies the same scope and caps: read-only keys only read, a transact key is held to its caps', async () => {
      const readOnly = await partnerWith({ scope: 'read_only' });
      const reader = await mcpClient(readOnly.key);
      const balanceTool: any = await reader.callTool({ name: 'service_get_balance', arguments: {} });
      expect(balanceTool.isError).toBeFalsy();
      const refused: any = await reader.callTool({
        name: 'service_topup',
        arguments: { ...topupOf(100), idempotency_key: 'mcp-scope-0001' },
      });
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent.error).toBe('scope_forbidden');

      const capped = await partnerWith({ scope: 'transact', per_order_max: '100.00' });
      const agent = await mcpClient(capped.key);
      const over: any = await agent.callTool({
        name: 'service_topup',
        arguments: { ...topupOf(101), idempotency_key: 'mcp-cap-0001' },
      });
      expect(over.structuredContent.error).toBe('key_cap_exceeded');
      const within: any = await agent.callTool({
        name: 'service_topup',
        arguments: { ...topupOf(100), idempotency_key: 'mcp-cap-0002' },
      });
      expect(within.isError).toBeFalsy();
      expect(await balance(capped.mainKey)).toBe('900.00');
      expect(await balance(readOnly.mainKey)).toBe('1000.00');
    });
  });

  describe('dry run (validate_only)', () => {
    it('answers what the order would be and moves nothing; the Idempotency-Key stays usable', async () => {
      const { sandboxKey } = await service.createPartner('IN');
      const body = { ...topupOf(120), reference: 'dry-1' };
      const dry = await service.topup(sandboxKey, { ...body, validate_only: true }, 'dry-run-0001');
      expect(dry.status).toBe(200);
      expect(dry.headers.get('idempotent-replay')).toBeNull();
      expect(dry.body).toEqual({
        validate_only: true,
        would: {
          operator_id: 101,
          phone: body.phone,
          amount_local: '120.0000',
          currency: 'INR',
          balance_after: '880.00',
          reference: 'dry-1',
        },
      });
      await service.settle();
      expect(await balance(sandboxKey)).toBe('1000.00');
      expect(await transactions(sandboxKey)).toEqual([]);
      expect((await service.partner('GET', '/webhook-deliveries', sandboxKey)).body.count).toBe(0);

      const real = await service.topup(sandboxKey, body, 'dry-run-0001');
      expect(real.status).toBe(200);
      expect(real.headers.get('idempotent-replay')).toBeNull();
      expect(real.body).toMatchObject({ status: 'PENDING', amount_local: '120.0000', balance_after: '880.00' });
      expect((await service.verify()).body.ok).toBe(true);
    });

    it('a dry run refused for its balance answers the same 402 as the real request', async () => {
      const { sandboxKey } = await service.createPartner('IN');
      const dry = await service.topup(sandboxKey, { ...topupOf(1000.01), validate_only: true }, 'dry-short-0001');
      const real = await service.topup(sandboxKey, topupOf(1000.01), 'dry-short-0002');
      expectError(dry, 402, 'insufficient_balance');
      expect(dry.body).toEqual(real.body);
    });

    it('a dry run runs the other checks too: amount range, operator, key scope and caps', async () => {
      const { mainKey, key } = await partnerWith({ scope: 'transact', daily_max: '100.00' });
      expectError(
        await service.topup(mainKey, { ...topupOf(5), validate_only: true }, 'dry-checks-01'),
        422,
        'amount_out_of_range',
      );
      expectError(
        await service.topup(mainKey, { ...topupOf(50), operator_id: 999, validate_only: true }, 'dry-checks-02'),
        404,
        'operator_not_found_or_wrong_corridor',
      );
      expectError(
        await service.topup(key, { ...topupOf(150), validate_only: true }, 'dry-checks-03'),
        403,
        'key_cap_exceeded',
      );
      const reader = await partnerWith({ scope: 'read_only' });
      expectError(
        await service.topup(reader.key, { ...topupOf(50), validate_only: true }, 'dry-checks-04'),
        403,
        'scope_forbidden',
      );
      expect(await balance(mainKey)).toBe('1000.00');
    });

    it('a dry run with a key already used for another request is refused as the real one would be', async () => {
      const { sandboxKey } = await service.createPartner('IN');
      expect((await service.topup(sandboxKey, topupOf(100), 'dry-used-0001')).status).toBe(200);
      expectError(
        await service.topup(sandboxKey, { ...topupOf(200), validate_only: true }, 'dry-used-0001'),
        409,
        'idempotency_conflict',
      );
      expect(
        (await service.topup(sandboxKey, { ...topupOf(100), validate_only: true }, 'dry-used-0001')).body.validate_only,
      ).toBe(true);
      expect(await balance(sandboxKey)).toBe('900.00');
    });

    it('a bill payment dry run answers the payment it would make, and the real one follows with the same key', async () => {
      const { sandboxKey } = await service.createPartner('IN');
      const bill = { biller_id: 1005, consumer_number: '1234560001' };
      expect((await service.partner('POST', '/bill-info', sandboxKey, bill)).status).toBe(200);
      const payment = { ...bill, amount: 500 };
      const headers = { 'idempotency-key': 'dry-bill-0001' };
      const dry = await service.partner('POST', '/pay-bill', sandboxKey, { ...payment, validate_only: true }, headers);
      expect(dry.body).toEqual({
        validate_only: true,
        would: {
          biller_id: 1005,
          consumer_number: '1234560001',
          amount_local: '500.0000',
          currency: 'INR',
          balance_after: '500.00',
          reference: null,
        },
      });
      expect(await balance(sandboxKey)).toBe('1000.00');
      const wrong = await service.partner(
        'POST',
        '/pay-bill',
        sandboxKey,
        { ...payment, amount: 600, validate_only: true },
        headers,
      );
      expectError(wrong, 422, 'amount_out_of_range');
      const real = await service.partner('POST', '/pay-bill', sandboxKey, payment, headers);
      expect(real.body).toMatchObject({ status: 'PENDING', biller_id: 1005, balance_after: '500.00' });
    });

    it('works through MCP with the same answer and moves nothing', async () => {
      const { sandboxKey } = await service.createPartner('IN');
      const agent = await mcpClient(sandboxKey);
      const dry: any = await agent.callTool({
        name: 'service_topup',
        arguments: { ...topupOf(100), idempotency_key: 'mcp-dry-0001', validate_only: true },
      });
      expect(dry.isError).toBeFalsy();
      expect(dry.structuredContent).toMatchObject({
        validate_only: true,
        would: { amount_local: '100.0000', balance_after: '900.00' },
      });
      expect(await balance(sandboxKey)).toBe('1000.00');
      const real: any = await agent.callTool({
        name: 'service_topup',
        arguments: { ...topupOf(100), idempotency_key: 'mcp-dry-0001' },
      });
      expect(real.structuredContent).toMatchObject({ status: 'PENDING', replayed: false });
    });
  });
});

describe('a daily maximum across two service processes sharing one database', () => {
  let services: TwoServices | undefined;
  let first: TestService;
  let second: TestService;

  beforeAll(async () => {
    services = await startTwoServices('scoped_keys');
    ({ first, second } = services);
  });
  afterAll(() => stopTwoServices(services ?? {}));

  it('topups of one key split across both processes stop exactly at its daily maximum', async () => {
    const { sandboxKey } = await first.createPartner('IN');
    const created = await first.partner('POST', '/keys', sandboxKey, {
      label: 'agent',
      scope: 'transact',
      daily_max: '400.00',
    });
    const key = created.body.api_key as string;
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        (i % 2 === 0 ? first : second).topup(key, topupOf(50), `two-process-cap-${i}`),
      ),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(8);
    expect(answers.filter((answer) => answer.status === 403 && answer.body.error === 'key_cap_exceeded')).toHaveLength(
      8,
    );
    expect((await second.partner('GET', '/balance', sandboxKey)).body.available).toBe('600.00');
    const [listed] = (await first.partner('GET', '/keys', sandboxKey)).body.keys;
    expect(listed).toMatchObject({ spent_last_24h: '400.00', refusals_last_24h: 8 });
  });
});
