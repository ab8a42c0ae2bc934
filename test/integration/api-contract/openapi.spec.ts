import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { randomUUID } from 'node:crypto';
import { HttpAnswer, SANDBOX_PHONES, TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = Record<string, Json>;

const PARTNER_OPERATIONS: Record<string, string[]> = {
  '/v1/partner/balance': ['get'],
  '/v1/partner/operators': ['get'],
  '/v1/partner/billers': ['get'],
  '/v1/partner/topup': ['post'],
  '/v1/partner/bill-info': ['post'],
  '/v1/partner/pay-bill': ['post'],
  '/v1/partner/transactions': ['get'],
  '/v1/partner/transactions/{order_id}': ['get'],
  '/v1/partner/settings': ['get', 'patch'],
  '/v1/partner/settings/webhook-secret/rotate': ['post'],
  '/v1/partner/webhook-deliveries': ['get'],
  '/v1/partner/webhook-deliveries/{id}': ['get'],
};

const SCHEMA_URN = 'urn:partner-api:schema:';

/**
 * Compiles the document's schemas with Ajv for JSON Schema 2020-12 (the dialect of
 * OpenAPI 3.1). Two variants: the schemas as published, and a closed copy in which
 * an object may carry only documented properties, so an undocumented field fails too.
 */
class DocumentSchemas {
  private readonly published = new Ajv2020({ strict: true, allErrors: true });
  private readonly closed = new Ajv2020({ strict: true, allErrors: true });

  constructor(private readonly document: JsonObject) {
    for (const ajv of [this.published, this.closed]) {
      addFormats(ajv);
      // The OpenAPI 3.1 base vocabulary adds these annotation keywords to JSON Schema.
      ajv.addVocabulary(['discriminator', 'xml', 'externalDocs', 'example']);
    }
    const schemas = (document.components as JsonObject).schemas as JsonObject;
    for (const [name, schema] of Object.entries(schemas)) {
      this.published.addSchema(withUrnRefs(schema) as object, `${SCHEMA_URN}${name}`);
      this.closed.addSchema(closeObjects(withUrnRefs(schema)) as object, `${SCHEMA_URN}${name}`);
    }
  }

  operation(path: string, method: string): JsonObject {
    const operation = ((this.document.paths as JsonObject)[path] as JsonObject | undefined)?.[method];
    if (!operation) throw new Error(`the document has no ${method.toUpperCase()} ${path}`);
    return operation as JsonObject;
  }

  /** The JSON schema the document declares for this status of the operation. */
  responseSchema(path: string, method: string, status: number): Json {
    const response = (this.operation(path, method).responses as JsonObject)[String(status)] as JsonObject | undefined;
    if (!response)
      throw new Error(`the document does not declare status ${status} for ${method.toUpperCase()} ${path}`);
    const schema = ((response.content as JsonObject | undefined)?.['application/json'] as JsonObject | undefined)
      ?.schema;
    if (schema === undefined)
      throw new Error(`status ${status} of ${method.toUpperCase()} ${path} has no application/json schema`);
    return schema;
  }

  requestSchema(path: string, method: string): Json {
    return (
      ((this.operation(path, method).requestBody as JsonObject).content as JsonObject)['application/json'] as JsonObject
    ).schema;
  }

  validator(schema: Json, variant: 'published' | 'closed' = 'closed'): ValidateFunction {
    const ajv = variant === 'closed' ? this.closed : this.published;
    return ajv.compile((variant === 'closed' ? closeObjects(withUrnRefs(schema)) : withUrnRefs(schema)) as object);
  }
}

function withUrnRefs(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(withUrnRefs);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string'
        ? value.replace('#/components/schemas/', SCHEMA_URN)
        : withUrnRefs(value),
    ]),
  );
}

function closeObjects(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(closeObjects);
  if (schema === null || typeof schema !== 'object') return schema;
  const copy = Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === 'properties' ? mapValues(value, closeObjects) : closeObjects(value),
    ]),
  );
  if (copy.properties !== undefined && copy.additionalProperties === undefined) copy.additionalProperties = false;
  return copy;
}

function mapValues(value: Json, map: (child: Json) => Json): Json {
  return Object.fromEntries(Object.entries(value as JsonObject).map(([key, child]) => [key, map(child)]));
}

describe('the OpenAPI document of the partner API', () => {
  let service: TestService;
  let document: JsonObject;
  let schemas: DocumentSchemas;

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres', env: { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' } });
    const served = await service.request('GET', '/v1/partner/openapi.json');
    expect(served.status).toBe(200);
    document = served.body;
    schemas = new DocumentSchemas(document);
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await service.close();
  });

  /** The real answer must have a status the document declares for the route, and match its schema with no undocumented field. */
  const expectDocumented = (answer: HttpAnswer, path: string, method: string): void => {
    const validate = schemas.validator(schemas.responseSchema(path, method, answer.status));
    const valid = validate(answer.body);
    expect({ status: answer.status, errors: valid ? null : validate.errors, body: valid ? null : answer.body }).toEqual(
      { status: answer.status, errors: null, body: null },
    );
  };

  describe('the document', () => {
    it('is served without a key as OpenAPI 3.1.0 of interface version 1.0.0', async () => {
      const served = await service.request('GET', '/v1/partner/openapi.json');
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toMatch(/^application\/json/);
      expect(document.openapi).toBe('3.1.0');
      expect(document.info).toMatchObject({ version: '1.0.0', title: expect.any(String) });
    });

    it('lists every partner operation and nothing outside /v1/partner/', () => {
      const paths = document.paths as JsonObject;
      for (const [path, methods] of Object.entries(PARTNER_OPERATIONS)) {
        for (const method of methods)
          expect({ path, method, documented: Boolean((paths[path] as JsonObject | undefined)?.[method]) }).toEqual({
            path,
            method,
            documented: true,
          });
      }
      expect(Object.keys(paths).filter((path) => !path.startsWith('/v1/partner/'))).toEqual([]);
    });

    it('declares the bearer key on every operation and the Idempotency-Key header on topup and pay-bill', () => {
      const schemes = (document.components as JsonObject).securitySchemes as JsonObject;
      const [name, scheme] =
        Object.entries(schemes).find(([, value]) => (value as JsonObject).scheme === 'bearer') ?? [];
      expect(scheme).toMatchObject({ type: 'http', scheme: 'bearer' });
      for (const [path, methods] of Object.entries(PARTNER_OPERATIONS)) {
        for (const method of methods) expect(schemas.operation(path, method).security).toEqual([{ [name!]: [] }]);
      }
      for (const path of ['/v1/partner/topup', '/v1/partner/pay-bill']) {
        const header = (schemas.operation(path, 'post').parameters as JsonObject[]).find(
          (parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key',
        );
        expect(header).toMatchObject({ required: true, schema: { type: 'string', minLength: 8 } });
        const ok = (schemas.operation(path, 'post').responses as JsonObject)['200'] as JsonObject;
        expect(ok.headers).toHaveProperty('Idempotent-Replay');
      }
      expect(schemas.operation('/v1/partner/bill-info', 'post').parameters ?? []).toEqual([]);
    });

    it('describes every response of every partner operation with a JSON schema, errors with the Error body', () => {
      const errorRef = { $ref: '#/components/schemas/Error' };
      for (const [path, methods] of Object.entries(PARTNER_OPERATIONS)) {
        for (const method of methods) {
          const statuses = Object.keys(schemas.operation(path, method).responses as JsonObject);
          expect(statuses).toEqual(expect.arrayContaining(['200', '401', '403', '429', '500']));
          for (const status of statuses) {
            const schema = schemas.responseSchema(path, method, Number(status));
            const ref = { $ref: expect.stringMatching(/^#\/components\/schemas\/\w+$/) };
            // A value-moving call answers its Order, or with validate_only its dry run.
            const dryRunnable = path === '/v1/partner/topup' || path === '/v1/partner/pay-bill';
            if (status === '200') expect(schema).toEqual(dryRunnable ? { oneOf: [ref, ref] } : ref);
            else expect({ path, method, status, schema }).toEqual({ path, method, status, schema: errorRef });
          }
        }
      }
      const expectStatuses = (path: string, method: string, statuses: string[]): void => {
        expect(Object.keys(schemas.operation(path, method).responses as JsonObject)).toEqual(
          expect.arrayContaining(statuses),
        );
      };
      expectStatuses('/v1/partner/topup', 'post', ['400', '402', '404', '409', '413', '415', '422']);
      expectStatuses('/v1/partner/pay-bill', 'post', ['400', '402', '404', '409', '413', '415', '422']);
      expectStatuses('/v1/partner/bill-info', 'post', ['400', '404', '409', '413', '415']);
      expectStatuses('/v1/partner/transactions/{order_id}', 'get', ['404']);
    });

    it('names the resources of the interface among its schemas', () => {
      expect(Object.keys((document.components as JsonObject).schemas as JsonObject)).toEqual(
        expect.arrayContaining([
          'Balance',
          'Operator',
          'OperatorList',
          'TopupOrder',
          'BillPaymentOrder',
          'BillInfo',
          'TransactionStatus',
          'TransactionList',
          'Biller',
          'BillerList',
          'Error',
          'TopupRequest',
          'BillInfoRequest',
          'PayBillRequest',
          'PartnerSettings',
          'SettingsChange',
          'WebhookDelivery',
          'WebhookDeliveryList',
          'WebhookAttempt',
        ]),
      );
    });

    it('keeps money amounts as decimal strings: a number in amount_local or available fails validation', async () => {
      const { sandboxKey } = await service.createPartner('IN', 'Tamper Check');
      const placed = await service.topup(
        sandboxKey,
        { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 100 },
        `tamper-${randomUUID()}`,
      );
      expectDocumented(placed, '/v1/partner/topup', 'post');
      const order = schemas.validator(schemas.responseSchema('/v1/partner/topup', 'post', 200), 'published');
      expect(order(placed.body)).toBe(true);
      expect(order({ ...placed.body, amount_local: 100 })).toBe(false);
      expect(order.errors).toEqual(
        expect.arrayContaining([expect.objectContaining({ instancePath: '/amount_local', keyword: 'type' })]),
      );
      expect(order({ ...placed.body, amount_local: '100.00' })).toBe(false);
      expect(order({ ...placed.body, status: 'INITIATED' })).toBe(false);
      expect(order({ ...placed.body, created_at: 'yesterday' })).toBe(false);
      const { phone: _phone, ...withoutPhone } = placed.body;
      expect(order(withoutPhone)).toBe(false);

      const balance = await service.partner('GET', '/balance', sandboxKey);
      const balanceSchema = schemas.validator(schemas.responseSchema('/v1/partner/balance', 'get', 200), 'published');
      expect(balanceSchema(balance.body)).toBe(true);
      expect(balanceSchema({ ...balance.body, available: 900 })).toBe(false);
      const errorSchema = schemas.validator(schemas.responseSchema('/v1/partner/topup', 'post', 400), 'published');
      expect(errorSchema({ error: 'validation_failed', detail: null })).toBe(true);
      expect(errorSchema({ error: 'validation_failed' })).toBe(false);
      expect(errorSchema({ error: 'something_else', detail: 'x' })).toBe(false);
      expect(
        schemas.validator(schemas.responseSchema('/v1/partner/balance', 'get', 200))({ ...balance.body, secret: 'x' }),
      ).toBe(false);
    });

    it('describes request bodies that accept what a partner sends and refuse a string amount', () => {
      const topup = schemas.validator(schemas.requestSchema('/v1/partner/topup', 'post'), 'published');
      expect(topup({ operator_id: 101, phone: '+919876540001', amount: 100, reference: 'inv-1' })).toBe(true);
      expect(topup({ operator_id: 101, phone: '+919876540001', amount: '100' })).toBe(false);
      expect(topup({ operator_id: 101, phone: '+919876540001', amount: 0 })).toBe(false);
      const payBill = schemas.validator(schemas.requestSchema('/v1/partner/pay-bill', 'post'), 'published');
      expect(
        payBill({ biller_id: 1006, consumer_number: '123456780001', amount: 500, params: { billing_unit: '4521' } }),
      ).toBe(true);
      expect(
        payBill({ biller_id: 1006, consumer_number: '123456780001', amount: 500, params: { billing_unit: 4521 } }),
      ).toBe(false);
      const billInfo = schemas.validator(schemas.requestSchema('/v1/partner/bill-info', 'post'), 'published');
      expect(billInfo({ biller_id: 1005, consumer_number: '1234560001' })).toBe(true);
      expect(billInfo({ biller_id: '1005', consumer_number: '1234560001' })).toBe(false);
    });
  });

  describe('real responses match the document', () => {
    let key: string;
    let partnerId: string;

    beforeAll(async () => {
      ({ sandboxKey: key, partnerId } = await service.createPartner('IN', 'Schema Check'));
    });

    it('balance, operators and billers', async () => {
      expectDocumented(await service.partner('GET', '/balance', key), '/v1/partner/balance', 'get');
      expectDocumented(await service.partner('GET', '/operators', key), '/v1/partner/operators', 'get');
      const detected = await service.partner('GET', `/operators?phone=${encodeURIComponent('+919876540001')}`, key);
      expect(detected.body.operators).toHaveLength(1);
      expectDocumented(detected, '/v1/partner/operators', 'get');
      expectDocumented(await service.partner('GET', '/billers', key), '/v1/partner/billers', 'get');
      expectDocumented(
        await service.partner('GET', '/billers?category=ELECTRICITY', key),
        '/v1/partner/billers',
        'get',
      );
    });

    it('a topup dry run, its Order, its replay, and its status while PENDING and after SUCCESS', async () => {
      const body = { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 100, reference: 'schema-topup' };
      const idempotencyKey = `schema-${randomUUID()}`;
      const dryRun = await service.topup(key, { ...body, validate_only: true }, idempotencyKey);
      expect(dryRun.body.validate_only).toBe(true);
      expectDocumented(dryRun, '/v1/partner/topup', 'post');
      const placed = await service.topup(key, body, idempotencyKey);
      expect(placed.status).toBe(200);
      expectDocumented(placed, '/v1/partner/topup', 'post');
      const replay = await service.topup(key, body, idempotencyKey);
      expect(replay.headers.get('idempotent-replay')).toBe('true');
      expectDocumented(replay, '/v1/partner/topup', 'post');
      expectDocumented(
        await service.partner('GET', `/transactions/${placed.body.order_id}`, key),
        '/v1/partner/transactions/{order_id}',
        'get',
      );
      await service.settle();
      const settled = await service.partner('GET', `/transactions/${placed.body.order_id}`, key);
      expect(settled.body.status).toBe('SUCCESS');
      expectDocumented(settled, '/v1/partner/transactions/{order_id}', 'get');
    });

    it('bill-info, a bill payment Order and a FAILED, refunded transaction', async () => {
      const fetched = await service.partner('POST', '/bill-info', key, {
        biller_id: 1005,
        consumer_number: '1234560002',
      });
      expectDocumented(fetched, '/v1/partner/bill-info', 'post');
      const credited = await service.admin('POST', `/partners/${partnerId}/wallet-credits`, {
        environment: 'sandbox',
        amount: '1000.00',
        reference: 'schema credit',
      });
      expect(credited.status).toBe(200);
      const paid = await service.partner(
        'POST',
        '/pay-bill',
        key,
        { biller_id: 1005, consumer_number: '1234560002', amount: 1500 },
        { 'idempotency-key': `schema-${randomUUID()}` },
      );
      expect(paid.status).toBe(200);
      expectDocumented(paid, '/v1/partner/pay-bill', 'post');
      await service.settle();
      const failed = await service.partner('GET', `/transactions/${paid.body.order_id}`, key);
      expect(failed.body.status).toBe('FAILED');
      expectDocumented(failed, '/v1/partner/transactions/{order_id}', 'get');
    });

    it('the transaction list, on a middle page and on the last page', async () => {
      const firstPage = await service.partner('GET', '/transactions?limit=1', key);
      expect(firstPage.body.next_cursor).toEqual(expect.any(String));
      expectDocumented(firstPage, '/v1/partner/transactions', 'get');
      const all = await service.partner('GET', '/transactions?limit=100', key);
      expect(all.body.next_cursor).toBeNull();
      expectDocumented(all, '/v1/partner/transactions', 'get');
    });

    it('settings, the change that creates the webhook secret, a rotation, and webhook deliveries with their attempts', async () => {
      expectDocumented(await service.partner('GET', '/settings', key), '/v1/partner/settings', 'get');
      const changed = await service.partner('PATCH', '/settings', key, {
        webhook_url: 'http://127.0.0.1:9/schema-check',
        ip_allowlist: ['127.0.0.1'],
        rate_limit_per_minute: 120,
      });
      expect(changed.body.webhook_secret).toEqual(expect.any(String));
      expectDocumented(changed, '/v1/partner/settings', 'patch');
      const rotated = await service.partner('POST', '/settings/webhook-secret/rotate', key);
      expect(rotated.body.previous_webhook_secret_valid_until).toEqual(expect.any(String));
      expectDocumented(rotated, '/v1/partner/settings/webhook-secret/rotate', 'post');
      expectDocumented(
        await service.partner('PATCH', '/settings', key, { rate_limit_per_minute: 601 }),
        '/v1/partner/settings',
        'patch',
      );

      const placed = await service.topup(
        key,
        { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 10 },
        'schema-webhook-1',
      );
      expect(placed.status).toBe(200);
      await service.settle();
      const list = await service.partner('GET', '/webhook-deliveries?limit=5', key);
      const delivery = (list.body.deliveries as { delivery_id: string; order_id: string; attempts: unknown[] }[]).find(
        (entry) => entry.order_id === placed.body.order_id,
      );
      expect(delivery?.attempts).toHaveLength(1);
      expectDocumented(list, '/v1/partner/webhook-deliveries', 'get');
      expectDocumented(
        await service.partner('GET', `/webhook-deliveries/${delivery!.delivery_id}`, key),
        '/v1/partner/webhook-deliveries/{id}',
        'get',
      );
      expectDocumented(
        await service.partner('GET', '/webhook-deliveries/no-such-delivery', key),
        '/v1/partner/webhook-deliveries/{id}',
        'get',
      );
      expectDocumented(
        await service.partner('GET', '/webhook-deliveries?state=LOST', key),
        '/v1/partner/webhook-deliveries',
        'get',
      );
    });

    it('error bodies for 400, 401, 402, 404, 409, 413, 415 and 422', async () => {
      const { sandboxKey } = await service.createPartner('IN', 'Schema Errors');
      const topup = (
        body: unknown,
        idempotencyKey: string | null = `schema-${randomUUID()}`,
        headers: Record<string, string> = {},
      ) =>
        service.partner('POST', '/topup', sandboxKey, body, {
          ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
          ...headers,
        });
      const valid = { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 100 };
      const expectError = async (
        answer: Promise<HttpAnswer>,
        status: number,
        path: string,
        method: string,
      ): Promise<void> => {
        const seen = await answer;
        expect(seen.status).toBe(status);
        expectDocumented(seen, path, method);
      };
      await expectError(topup({ ...valid, amount: '100' }), 400, '/v1/partner/topup', 'post');
      await expectError(topup(valid, null), 400, '/v1/partner/topup', 'post');
      await expectError(service.request('GET', '/v1/partner/balance'), 401, '/v1/partner/balance', 'get');
      await expectError(topup({ ...valid, amount: 5000 }), 402, '/v1/partner/topup', 'post');
      await expectError(topup({ ...valid, operator_id: 201 }), 404, '/v1/partner/topup', 'post');
      await expectError(
        service.partner('GET', '/transactions/ord_does_not_exist', sandboxKey),
        404,
        '/v1/partner/transactions/{order_id}',
        'get',
      );
      await expectError(
        service.partner('POST', '/bill-info', sandboxKey, { biller_id: 1005, consumer_number: '1234567777' }),
        404,
        '/v1/partner/bill-info',
        'post',
      );
      const reused = `schema-${randomUUID()}`;
      expect((await topup(valid, reused)).status).toBe(200);
      await expectError(topup({ ...valid, amount: 200 }, reused), 409, '/v1/partner/topup', 'post');
      await expectError(topup({ ...valid, reference: 'x'.repeat(2 * 1024 * 1024) }), 413, '/v1/partner/topup', 'post');
      await expectError(
        service.request('POST', '/v1/partner/topup', {
          token: sandboxKey,
          rawBody: JSON.stringify(valid),
          headers: { 'content-type': 'text/plain', 'idempotency-key': `schema-${randomUUID()}` },
        }),
        415,
        '/v1/partner/topup',
        'post',
      );
      await expectError(topup({ ...valid, amount: 5000.01 }), 422, '/v1/partner/topup', 'post');
      await service.partner('POST', '/bill-info', sandboxKey, { biller_id: 1005, consumer_number: '1234560001' });
      await expectError(
        service.partner(
          'POST',
          '/pay-bill',
          sandboxKey,
          { biller_id: 1005, consumer_number: '1234560001', amount: 400 },
          { 'idempotency-key': `schema-${randomUUID()}` },
        ),
        422,
        '/v1/partner/pay-bill',
        'post',
      );
    });
  });

  describe('the browsable page', () => {
    it('GET /docs answers an HTML page that loads Swagger UI for the document', async () => {
      const page = await service.request('GET', '/docs');
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.text).toMatch(/^<!DOCTYPE html>/i);
      expect(page.text).toContain('id="swagger-ui"');
      const scripts = [...page.text.matchAll(/<script src="([^"]+)"/g)].map((match) => match[1]);
      const styles = [...page.text.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((match) => match[1]);
      expect(scripts.length).toBeGreaterThan(0);
      for (const asset of [...scripts, ...styles]) {
        const answer = await service.request('GET', asset);
        expect({ asset, status: answer.status }).toEqual({ asset, status: 200 });
      }
      const init = await service.request('GET', scripts[scripts.length - 1]);
      expect(init.text).toContain('/v1/partner/openapi.json');
    });

    it("has the console's security headers: its own scripts only, this service only, never framed", async () => {
      for (const path of ['/docs', '/docs/', '/docs/swagger-ui-init.js', '/docs/assets/swagger-ui-bundle.js']) {
        const answer = await service.request('GET', path);
        expect({ path, status: answer.status }).toEqual({ path, status: 200 });
        const policy = answer.headers.get('content-security-policy') ?? '';
        expect(policy).toContain("frame-ancestors 'none'");
        expect(policy).toContain("script-src 'self'");
        expect(policy).toContain("default-src 'none'");
        expect(policy).not.toMatch(/unsafe-inline|unsafe-eval/);
        expect(answer.headers.get('x-frame-options')).toBe('DENY');
        expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
        expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
        expect(answer.headers.get('cross-origin-opener-policy')).toBe('same-origin');
      }
    });

    it('serves no other file from the Swagger UI folder', async () => {
      expect((await service.request('GET', '/docs/assets/package.json')).status).toBe(404);
      expect((await service.request('GET', '/docs/assets/..%2F..%2Fpackage.json')).status).toBe(404);
    });
  });
});
