import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, ListResourcesResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { TOOL_INPUTS } from '../../../src/interface/mcp/tool-schemas';
import Ajv from 'ajv';
import { SANDBOX_PHONES, TestService } from '../../support/test-service';

const TOOL_NAMES = [
  'service_get_balance',
  'service_get_bill_info',
  'service_get_transaction',
  'service_list_operators',
  'service_pay_bill',
  'service_topup',
];
const READ_ONLY = ['service_get_balance', 'service_get_bill_info', 'service_get_transaction', 'service_list_operators'];
const MONEY_MOVING = ['service_pay_bill', 'service_topup'];

describe('agent-tool endpoint /v1/mcp (official MCP SDK client over HTTP)', () => {
  let service: TestService;
  let key: string;
  let client: Client;
  const opened: Client[] = [];

  const connect = async (token: string | null): Promise<Client> => {
    const mcp = new Client({ name: 'mcp-spec', version: '1.0.0' });
    const headers: Record<string, string> = token === null ? {} : { Authorization: `Bearer ${token}` };
    const transport = new StreamableHTTPClientTransport(new URL(`${service.url}/v1/mcp`), { requestInit: { headers } });
    await mcp.connect(transport);
    opened.push(mcp);
    return mcp;
  };

  const call = async (name: string, args: Record<string, unknown> = {}, on: Client = client): Promise<any> =>
    on.callTool({ name, arguments: args });
  const restBalance = async (): Promise<string> => (await service.partner('GET', '/balance', key)).body.available;
  const topupArgs = (suffix: string, idempotencyKey: string, amount = 100) => ({
    operator_id: 101,
    phone: SANDBOX_PHONES.IN(suffix),
    amount,
    reference: `ref-${suffix}`,
    idempotency_key: idempotencyKey,
  });

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres' });
  });
  afterAll(async () => {
    await service.close();
  });
  beforeEach(async () => {
    ({ sandboxKey: key } = await service.createPartner('IN'));
    client = await connect(key);
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((mcp) => mcp.close()));
  });

  describe('tool list', () => {
    it('offers exactly the partner tools, each with a valid, fully described JSON Schema input', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(TOOL_NAMES);
      // Every tool has an input class: its published schema and the validation of its calls.
      expect(Object.keys(TOOL_INPUTS).sort()).toEqual(TOOL_NAMES);
      const ajv = new Ajv({ strict: false });
      for (const tool of tools) {
        expect(tool.description?.length).toBeGreaterThan(80);
        expect(tool.inputSchema.type).toBe('object');
        expect(tool.inputSchema.additionalProperties).toBe(false);
        expect(() => ajv.compile(tool.inputSchema)).not.toThrow();
        for (const [property, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
          const described = ((schema as { description?: string }).description ?? '').length > 20;
          expect({ tool: tool.name, property, described }).toEqual({ tool: tool.name, property, described: true });
        }
      }
      const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
      expect(byName.service_topup.inputSchema.required?.sort()).toEqual([
        'amount',
        'idempotency_key',
        'operator_id',
        'phone',
      ]);
      expect(byName.service_pay_bill.inputSchema.required?.sort()).toEqual([
        'amount',
        'biller_id',
        'consumer_number',
        'idempotency_key',
      ]);
      expect(byName.service_get_bill_info.inputSchema.required?.sort()).toEqual(['biller_id', 'consumer_number']);
      expect(byName.service_get_transaction.inputSchema.required).toEqual(['order_id']);
      expect(byName.service_get_balance.inputSchema.properties ?? {}).toEqual({});
      expect(byName.service_list_operators.inputSchema.required ?? []).toEqual([]);
      expect(Object.keys(byName.service_list_operators.inputSchema.properties ?? {}).sort()).toEqual([
        'category',
        'kind',
        'name',
        'phone',
      ]);
      expect(byName.service_topup.inputSchema.properties?.idempotency_key).toMatchObject({
        type: 'string',
        minLength: 8,
        maxLength: 255,
      });
      // How pay-bill gets its amount is said in its description.
      expect(byName.service_pay_bill.description).toContain('does NOT fetch the bill');
      expect(byName.service_pay_bill.description).toContain('service_get_bill_info');
    });

    it('publishes the limits of the REST request schemas, field for field', async () => {
      const { tools } = await client.listTools();
      const components = (await service.request('GET', '/v1/partner/openapi.json')).body.components.schemas;
      const limits = (schema: Record<string, unknown>) => {
        const { description: _description, examples: _examples, ...rest } = schema;
        return rest;
      };
      for (const [tool, component] of [
        ['service_topup', 'TopupRequest'],
        ['service_get_bill_info', 'BillInfoRequest'],
        ['service_pay_bill', 'PayBillRequest'],
      ]) {
        const published = tools.find((entry) => entry.name === tool)!.inputSchema;
        const rest = components[component];
        expect([tool, (published.required ?? []).filter((name) => name !== 'idempotency_key').sort()]).toEqual([
          tool,
          [...rest.required].sort(),
        ]);
        for (const [field, schema] of Object.entries(rest.properties as Record<string, Record<string, unknown>>)) {
          expect([tool, field, limits(published.properties![field] as Record<string, unknown>)]).toEqual([
            tool,
            field,
            limits(schema),
          ]);
        }
      }
    });

    it('sets the annotations truthfully: reads are read-only, payments are destructive but idempotent by key', async () => {
      const { tools } = await client.listTools();
      for (const tool of tools) {
        if (READ_ONLY.includes(tool.name)) {
          expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
        } else {
          expect(MONEY_MOVING).toContain(tool.name);
          expect(tool.annotations).toMatchObject({
            readOnlyHint: false,
            destructiveHint: true,
            idempotentHint: true,
            openWorldHint: true,
          });
        }
      }
    });

    it('the published schemas accept a correct call and reject the usual mistakes', async () => {
      const { tools } = await client.listTools();
      const ajv = new Ajv({ strict: false });
      const topup = ajv.compile(tools.find((tool) => tool.name === 'service_topup')!.inputSchema);
      expect(topup(topupArgs('0001', 'schema-check-1'))).toBe(true);
      expect(topup({ ...topupArgs('0001', 'schema-check-1'), amount: '100' })).toBe(false);
      expect(topup({ operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 100 })).toBe(false);
      expect(topup({ ...topupArgs('0001', 'short') })).toBe(false);
      expect(topup({ ...topupArgs('0001', 'schema-check-1'), operator: 101 })).toBe(false);
      const list = ajv.compile(tools.find((tool) => tool.name === 'service_list_operators')!.inputSchema);
      expect(list({})).toBe(true);
      expect(list({ kind: 'biller', category: 'ELECTRICITY', name: 'tata' })).toBe(true);
      expect(list({ kind: 'airline' })).toBe(false);
    });

    it('identifies itself and gives usage instructions', async () => {
      expect(client.getServerVersion()).toMatchObject({ name: 'partner-recharge-service' });
      expect(client.getInstructions()).toContain('idempotency_key');
    });
  });

  describe('reads match REST', () => {
    it('service_get_balance is the REST Balance', async () => {
      const result = await call('service_get_balance');
      const rest = await service.partner('GET', '/balance', key);
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual(rest.body);
      expect(result.structuredContent).toMatchObject({
        available: '1000.00',
        currency: 'INR',
        corridor: 'IN',
        environment: 'sandbox',
      });
      expect(result.content).toEqual([{ type: 'text', text: expect.stringContaining('1000.00 INR') }]);
    });

    it('service_list_operators lists the REST operators and billers', async () => {
      const result = await call('service_list_operators');
      const operators = await service.partner('GET', '/operators', key);
      const billers = await service.partner('GET', '/billers', key);
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({
        corridor: 'IN',
        currency: 'INR',
        count: operators.body.count + billers.body.count,
        operators: operators.body.operators,
        billers: billers.body.billers,
      });
      expect(result.content[0].text).toContain('operator 101 Airtel');
    });

    it('filters by phone (operator detection, as REST ?phone=), kind, category and name', async () => {
      const phone = SANDBOX_PHONES.IN('0001');
      const detected = await call('service_list_operators', { phone });
      const rest = await service.partner('GET', `/operators?phone=${encodeURIComponent(phone)}`, key);
      expect(detected.structuredContent).toMatchObject({
        phone: rest.body.phone,
        operators: rest.body.operators,
        billers: [],
      });
      expect(detected.structuredContent.operators.map((op: { id: number }) => op.id)).toEqual([101]);

      const onlyOperators = await call('service_list_operators', { kind: 'operator' });
      expect(onlyOperators.structuredContent.billers).toEqual([]);
      expect(onlyOperators.structuredContent.operators).toEqual(
        (await service.partner('GET', '/operators', key)).body.operators,
      );

      const electricity = await call('service_list_operators', { category: 'ELECTRICITY' });
      expect(electricity.structuredContent.operators).toEqual([]);
      expect(electricity.structuredContent.billers).toEqual(
        (await service.partner('GET', '/billers?category=ELECTRICITY', key)).body.billers,
      );

      const airtel = await call('service_list_operators', { name: 'AIRTEL' });
      expect(airtel.structuredContent.operators.map((op: { id: number }) => op.id)).toEqual([101]);
      const restBillers = (await service.partner('GET', '/billers', key)).body.billers as {
        name: string;
        api_biller_id: string;
      }[];
      const airtelBillers = restBillers.filter((biller) => /airtel/i.test(`${biller.name} ${biller.api_biller_id}`));
      expect(airtelBillers.map((biller) => biller.name)).toContain('Airtel Postpaid');
      expect(airtel.structuredContent.billers).toEqual(airtelBillers);

      const prepaidOnly = await call('service_list_operators', { category: 'MOBILE_PREPAID', kind: 'all' });
      expect(prepaidOnly.structuredContent.billers).toEqual([]);
      expect(prepaidOnly.structuredContent.count).toBe(prepaidOnly.structuredContent.operators.length);

      const mixed = await call('service_list_operators', { kind: 'biller', phone });
      expect(mixed).toMatchObject({ isError: true, structuredContent: { error: 'validation_failed' } });
    });
  });

  describe('topup', () => {
    it('returns the REST Order plus replayed, and debits once however often the call is repeated', async () => {
      const args = topupArgs('0001', 'mcp-topup-once-1');
      const first = await call('service_topup', args);
      expect(first.isError).toBeFalsy();
      expect(first.structuredContent).toEqual({
        order_id: expect.stringMatching(/^ord_/),
        status: 'PENDING',
        operator_id: 101,
        phone: '+919876540001',
        amount_local: '100.0000',
        currency: 'INR',
        balance_after: '900.00',
        reference: 'ref-0001',
        created_at: expect.any(String),
        replayed: false,
      });
      expect(first.content[0].text).toContain(first.structuredContent.order_id);

      const again = await call('service_topup', args);
      expect(again.structuredContent).toEqual({ ...first.structuredContent, replayed: true });
      expect(again.content[0].text).toContain('no new debit');

      // Concurrent repeats of another payment, from separate clients: still one order, one debit.
      const others = [client, await connect(key), await connect(key)];
      const burst = await Promise.all(
        others.map((mcp) => call('service_topup', topupArgs('0003', 'mcp-topup-burst-1'), mcp)),
      );
      expect(burst.every((result) => !result.isError)).toBe(true);
      expect(new Set(burst.map((result) => result.structuredContent.order_id)).size).toBe(1);
      expect(burst.filter((result) => result.structuredContent.replayed === false)).toHaveLength(1);
      expect(new Set(burst.map((result) => result.structuredContent.balance_after))).toEqual(new Set(['800.00']));

      expect(await restBalance()).toBe('800.00');
      expect((await call('service_get_balance')).structuredContent.available).toBe('800.00');
      // The list is read from the orders read model, which shows a new order once the projector has passed it.
      await service.settle();
      const listed = await service.partner('GET', '/transactions', key);
      expect(listed.body.transactions).toHaveLength(2);
    });

    it('shares idempotency with REST: the same key and body replay across transports', async () => {
      const args = topupArgs('0001', 'mcp-rest-shared-1');
      const viaTool = await call('service_topup', args);
      const { idempotency_key: idempotencyKey, ...body } = args;
      const viaRest = await service.topup(key, body, idempotencyKey);
      expect(viaRest.status).toBe(200);
      expect(viaRest.headers.get('idempotent-replay')).toBe('true');
      expect(viaRest.body).toEqual({ ...viaTool.structuredContent, replayed: undefined });
      expect(await restBalance()).toBe('900.00');
    });

    it('refuses the same key with different arguments, without a second debit', async () => {
      await call('service_topup', topupArgs('0001', 'mcp-conflict-01'));
      const changed = await call('service_topup', topupArgs('0001', 'mcp-conflict-01', 150));
      expect(changed).toMatchObject({
        isError: true,
        structuredContent: { error: 'idempotency_conflict', detail: expect.any(String) },
      });
      expect(changed.content).toEqual([
        { type: 'text', text: `idempotency_conflict: ${changed.structuredContent.detail}` },
      ]);
      expect(await restBalance()).toBe('900.00');
    });

    it('sandbox 0001 settles as SUCCESS with an operator reference', async () => {
      const placed = await call('service_topup', topupArgs('0001', 'mcp-sbx-0001'));
      await service.settle();
      const status = await call('service_get_transaction', { order_id: placed.structuredContent.order_id });
      const rest = await service.partner('GET', `/transactions/${placed.structuredContent.order_id}`, key);
      expect(status.structuredContent).toEqual(rest.body);
      expect(status.structuredContent).toMatchObject({
        status: 'SUCCESS',
        refunded_at: null,
        operator_ref: expect.any(String),
        settled_at: expect.any(String),
      });
      expect(status.content[0].text).toContain('SUCCESS');
      expect(await restBalance()).toBe('900.00');
    });

    it('sandbox 0002 FAILS and the wallet is refunded exactly once', async () => {
      const placed = await call('service_topup', topupArgs('0002', 'mcp-sbx-0002'));
      expect(placed.structuredContent.balance_after).toBe('900.00');
      await service.settle();
      const status = await call('service_get_transaction', { order_id: placed.structuredContent.order_id });
      expect(status.structuredContent).toMatchObject({
        status: 'FAILED',
        operator_ref: null,
        settled_at: null,
        refunded_at: expect.any(String),
      });
      expect(status.content[0].text).toContain('refunded');
      // A late retry of the same call replays the original answer; it neither debits nor refunds again.
      const retry = await call('service_topup', topupArgs('0002', 'mcp-sbx-0002'));
      expect(retry.structuredContent).toMatchObject({ order_id: placed.structuredContent.order_id, replayed: true });
      await service.settle();
      expect(await restBalance()).toBe('1000.00');
    });

    it('insufficient balance is a tool error with the spec code, and nothing is debited', async () => {
      const result = await call('service_topup', topupArgs('0001', 'mcp-too-much-1', 1500));
      expect(result).toMatchObject({
        isError: true,
        structuredContent: { error: 'insufficient_balance', detail: expect.any(String) },
      });
      expect(result.content[0].text).toMatch(/^insufficient_balance: /);
      expect(await restBalance()).toBe('1000.00');
    });

    it('other refusals are tool errors with the spec codes, never protocol errors', async () => {
      const expectRefusal = async (args: Record<string, unknown>, code: string) => {
        const result = await call('service_topup', args);
        expect([code, result.isError, result.structuredContent?.error]).toEqual([code, true, code]);
      };
      await expectRefusal(
        { ...topupArgs('0001', 'mcp-refuse-01'), operator_id: 201 },
        'operator_not_found_or_wrong_corridor',
      );
      await expectRefusal(topupArgs('0001', 'mcp-refuse-02', 5), 'amount_out_of_range');
      await expectRefusal({ ...topupArgs('0001', 'mcp-refuse-03'), phone: '12345' }, 'validation_failed');
      await expectRefusal(topupArgs('0001', 'mcp-refuse-04', 10.005), 'validation_failed');
      await expectRefusal({ ...topupArgs('0001', 'mcp-refuse-05'), reference: 'a\u0007b' }, 'validation_failed');
      const missing = await call('service_get_transaction', { order_id: 'ord_000000000000000000000000' });
      expect(missing).toMatchObject({ isError: true, structuredContent: { error: 'not_found' } });

      // Arguments that break the published schema are refused before the tool runs, as the same kind of tool error.
      const badType = await call('service_topup', { ...topupArgs('0001', 'mcp-refuse-06'), amount: '100' });
      expect(badType).toMatchObject({
        isError: true,
        structuredContent: { error: 'validation_failed', detail: expect.stringMatching(/^amount: /) },
      });
      const noKey = await call('service_topup', { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 100 });
      expect(noKey).toMatchObject({
        isError: true,
        structuredContent: { error: 'validation_failed', detail: expect.stringMatching(/^idempotency_key: /) },
      });
      const extra = await call('service_topup', { ...topupArgs('0001', 'mcp-refuse-07'), tip: 5 });
      expect(extra).toMatchObject({
        isError: true,
        structuredContent: { error: 'validation_failed', detail: 'tip: is not a field of this tool' },
      });

      expect(await restBalance()).toBe('1000.00');
    });
  });

  describe('bill payment', () => {
    const biller = 1005;

    it('takes the amount from service_get_bill_info and pays once', async () => {
      const unfetched = await call('service_pay_bill', {
        biller_id: biller,
        consumer_number: '1234560003',
        amount: 850.5,
        idempotency_key: 'mcp-bill-nofetch',
      });
      expect(unfetched).toMatchObject({
        isError: true,
        structuredContent: { error: 'validation_failed', hint: expect.stringContaining('service_get_bill_info') },
      });
      expect(unfetched.content[0].text).toMatch(/^validation_failed: .*\n.*service_get_bill_info/);

      const bill = await call('service_get_bill_info', { biller_id: biller, consumer_number: '1234560001' });
      const restBill = await service.partner('POST', '/bill-info', key, {
        biller_id: biller,
        consumer_number: '1234560001',
      });
      expect(bill.isError).toBeFalsy();
      expect(bill.structuredContent).toMatchObject({
        biller_id: biller,
        consumer_number: '1234560001',
        amount: '500.00',
        currency: 'INR',
      });
      expect({ ...bill.structuredContent, fetched_at: null, instructions: null }).toEqual({
        ...restBill.body,
        fetched_at: null,
        instructions: null,
      });
      expect(bill.structuredContent.instructions).toContain('service_pay_bill');

      const wrongAmount = await call('service_pay_bill', {
        biller_id: biller,
        consumer_number: '1234560001',
        amount: 450,
        idempotency_key: 'mcp-bill-wrong-1',
      });
      expect(wrongAmount).toMatchObject({ isError: true, structuredContent: { error: 'amount_out_of_range' } });

      const args = {
        biller_id: biller,
        consumer_number: '1234560001',
        amount: Number(bill.structuredContent.amount),
        reference: 'bill-ref-1',
        idempotency_key: 'mcp-bill-pay-01',
      };
      const paid = await call('service_pay_bill', args);
      expect(paid.structuredContent).toEqual({
        order_id: expect.stringMatching(/^ord_/),
        status: 'PENDING',
        biller_id: biller,
        consumer_number: '1234560001',
        amount_local: '500.0000',
        currency: 'INR',
        balance_after: '500.00',
        reference: 'bill-ref-1',
        created_at: expect.any(String),
        replayed: false,
      });
      const again = await call('service_pay_bill', args);
      expect(again.structuredContent).toEqual({ ...paid.structuredContent, replayed: true });
      await service.settle();
      expect(
        (await call('service_get_transaction', { order_id: paid.structuredContent.order_id })).structuredContent.status,
      ).toBe('SUCCESS');
      expect(await restBalance()).toBe('500.00');
    });

    it('a bill above the balance is refused with insufficient_balance', async () => {
      const bill = await call('service_get_bill_info', { biller_id: biller, consumer_number: '1234560002' });
      expect(bill.structuredContent.amount).toBe('1500.00');
      const result = await call('service_pay_bill', {
        biller_id: biller,
        consumer_number: '1234560002',
        amount: 1500,
        idempotency_key: 'mcp-bill-poor-1',
      });
      expect(result).toMatchObject({ isError: true, structuredContent: { error: 'insufficient_balance' } });
      expect(await restBalance()).toBe('1000.00');
    });
  });

  describe('admission and protocol', () => {
    it('a wrong or missing key is refused with 401 before the MCP session starts', async () => {
      for (const token of ['svc_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'not-a-key', null]) {
        const refused = connect(token);
        await expect(refused).rejects.toBeInstanceOf(StreamableHTTPError);
        await expect(refused).rejects.toMatchObject({ code: 401 });
      }
    });

    it('a tool call with a wrong key never runs: 401 invalid_api_key and no debit', async () => {
      const response = await fetch(`${service.url}/v1/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}x`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'service_topup', arguments: topupArgs('0001', 'mcp-wrong-key-1') },
        }),
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: 'invalid_api_key', detail: expect.any(String) });
      expect(await restBalance()).toBe('1000.00');
    });

    it('protocol errors stay protocol errors', async () => {
      // No resources are offered: an unknown method is a JSON-RPC error, not a tool result.
      const unknownMethod = client.request({ method: 'resources/list' }, ListResourcesResultSchema);
      await expect(unknownMethod).rejects.toBeInstanceOf(McpError);
      await expect(unknownMethod).rejects.toMatchObject({ code: ErrorCode.MethodNotFound });

      const headers = {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      };
      const notJsonRpc = await fetch(`${service.url}/v1/mcp`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ hello: 'world' }),
      });
      expect(notJsonRpc.status).toBe(400);
      expect(await notJsonRpc.json()).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } });

      const batch = await fetch(`${service.url}/v1/mcp`, {
        method: 'POST',
        headers,
        body: JSON.stringify([
          {
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name: 'service_topup', arguments: topupArgs('0001', 'mcp-batch-0001') },
          },
        ]),
      });
      expect(batch.status).toBe(400);
      expect(await batch.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
      expect(await restBalance()).toBe('1000.00');

      for (const method of ['GET', 'DELETE']) {
        const answer = await fetch(`${service.url}/v1/mcp`, {
          method,
          headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' },
        });
        expect([method, answer.status]).toEqual([method, 405]);
        expect(await answer.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
      }
    });

    it('a malformed tools/call or initialize is -32602 Invalid params with a short reason, and moves no money', async () => {
      const headers = {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      };
      const send = async (message: unknown) => {
        const answer = await fetch(`${service.url}/v1/mcp`, { method: 'POST', headers, body: JSON.stringify(message) });
        return { status: answer.status, body: (await answer.json()) as { error: { message: string } } };
      };
      for (const params of [
        undefined,
        {},
        { name: 'service_topup', arguments: null },
        { name: 'service_topup', arguments: [] },
        { name: 'service_topup', arguments: 'x' },
      ]) {
        const answer = await send({
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          ...(params === undefined ? {} : { params }),
        });
        expect(answer).toEqual({
          status: 200,
          body: { jsonrpc: '2.0', id: 7, error: { code: -32602, message: expect.stringMatching(/^Invalid params: /) } },
        });
        expect(answer.body.error.message.length).toBeLessThan(200);
      }
      const initialize = await send({ jsonrpc: '2.0', id: 'init', method: 'initialize' });
      expect(initialize.body).toEqual({
        jsonrpc: '2.0',
        id: 'init',
        error: { code: -32602, message: expect.stringMatching(/^Invalid params: /) },
      });
      // An unknown tool stays the SDK's to answer.
      const unknownTool = await send({
        jsonrpc: '2.0',
        id: 8,
        method: 'tools/call',
        params: { name: 'constructor', arguments: {} },
      });
      expect(unknownTool.status).toBe(200);
      expect(await restBalance()).toBe('1000.00');
    });

    it('stays behind the service body-size limit', async () => {
      const huge = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: { pad: 'x'.repeat(service.config.bodyLimitBytes) },
      });
      const answer = await fetch(`${service.url}/v1/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: huge,
      });
      expect(answer.status).toBe(413);
    });
  });

  it('leaves the money invariants intact', async () => {
    await service.settle();
    const report = await service.verify();
    expect(report.body).toMatchObject({ ok: true, breaches: [] });
  });
});
