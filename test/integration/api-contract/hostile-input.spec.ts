import { randomUUID } from 'node:crypto';
import { expectRefusal } from '../../support/error-assertions';
import { HttpAnswer, SANDBOX_PHONES, TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

/**
 * Whatever a partner sends, a refusal is a 4xx with the Error body that names the
 * offending field, never a 5xx, and no money moves: the wallet keeps its starting
 * 1000.00 and no order appears in the partner's transaction list.
 */

const VALID_TOPUP = { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 100 };
const json = (value: unknown): string => JSON.stringify(value);
/** A JSON body with one field of `base` replaced by raw JSON text (for literals JSON.stringify cannot write). */
const bodyWith = (base: Record<string, unknown>, field: string, rawValue: string): string => {
  const others = Object.entries(base).filter(([name]) => name !== field);
  return `{${[...others.map(([name, value]) => `${json(name)}:${json(value)}`), `${json(field)}:${rawValue}`].join(',')}}`;
};
const topupWith = (field: string, rawValue: string): string => bodyWith(VALID_TOPUP, field, rawValue);

interface RawRequest {
  body?: string | Buffer;
  headers?: Record<string, string>;
}

class Partner {
  constructor(
    private readonly service: TestService,
    readonly key: string,
  ) {}

  /** A POST with the partner's key, a fresh Idempotency-Key and a JSON content type unless told otherwise. */
  post(path: string, request: RawRequest): Promise<HttpAnswer> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.key}`,
      'idempotency-key': `hostile-${randomUUID()}`,
      'content-type': 'application/json',
      ...request.headers,
    };
    for (const [name, value] of Object.entries(headers)) if (value === '') delete headers[name];
    return this.service.request('POST', `/v1/partner${path}`, { rawBody: request.body, headers });
  }

  get(path: string): Promise<HttpAnswer> {
    return this.service.partner('GET', path, this.key);
  }

  /** The wallet still holds the sandbox credit and no order was recorded. */
  async expectNoMoneyMoved(): Promise<void> {
    const balance = await this.get('/balance');
    expect(balance.body.available).toBe('1000.00');
    const orders = await this.get('/transactions');
    expect(orders.body.count).toBe(0);
  }

  /** Fetches the 500.00 sandbox bill of BESCOM, so pay-bill requests get past the "no bill" check. */
  async fetchBill(consumerNumber = '1234560001'): Promise<void> {
    const fetched = await this.post('/bill-info', { body: json({ biller_id: 1005, consumer_number: consumerNumber }) });
    expect(fetched.status).toBe(200);
  }
}

type Case = [description: string, body: string, status: number, code: string, field: string];

/**
 * `validate_only` is a JSON true or false and nothing else: a null, a string, a number, an object
 * is refused (a value read as "not true" would otherwise place a real order).
 */
const validateOnlyCases = (bodyOf: (field: string, rawValue: string) => string): Case[] =>
  (
    [
      ['null', 'null'],
      ['the string "true"', '"true"'],
      ['the string "false"', '"false"'],
      ['an empty string', '""'],
      ['the number 1', '1'],
      ['the number 0', '0'],
      ['an empty object', '{}'],
      ['an array', '[true]'],
    ] as const
  ).map(([what, raw]): Case => [
    `validate_only as ${what}`,
    bodyOf('validate_only', raw),
    400,
    'validation_failed',
    'validate_only',
  ]);

const TOPUP_BODY_CASES: Case[] = [
  ['malformed JSON', '{"operator_id": 101, "phone": ', 400, 'validation_failed', 'body'],
  ['a JSON array instead of an object', json([VALID_TOPUP]), 400, 'validation_failed', 'body'],
  ['a JSON null', 'null', 400, 'validation_failed', 'body'],
  ['a JSON string', json('topup please'), 400, 'validation_failed', 'body'],
  ['a JSON number', '42', 400, 'validation_failed', 'body'],
  ['an empty body', '', 400, 'validation_failed', 'body'],
  ['an empty object', '{}', 400, 'validation_failed', 'operator_id'],
  ['the amount as a string "100"', topupWith('amount', '"100"'), 400, 'validation_failed', 'amount'],
  ['the operator id as a string "101"', topupWith('operator_id', '"101"'), 400, 'validation_failed', 'operator_id'],
  ['the amount as true', topupWith('amount', 'true'), 400, 'validation_failed', 'amount'],
  ['the amount as an object', topupWith('amount', '{"value":100}'), 400, 'validation_failed', 'amount'],
  ['the amount 1e309, which overflows to Infinity', topupWith('amount', '1e309'), 400, 'validation_failed', 'amount'],
  ['the literal NaN (not JSON)', topupWith('amount', 'NaN'), 400, 'validation_failed', 'body'],
  ['the literal Infinity (not JSON)', topupWith('amount', 'Infinity'), 400, 'validation_failed', 'body'],
  ['the literal -Infinity (not JSON)', topupWith('amount', '-Infinity'), 400, 'validation_failed', 'body'],
  ['a negative amount', topupWith('amount', '-100'), 400, 'validation_failed', 'amount'],
  ['a zero amount', topupWith('amount', '0'), 400, 'validation_failed', 'amount'],
  ['a negative zero amount', topupWith('amount', '-0'), 400, 'validation_failed', 'amount'],
  ['an amount with three decimals (0.001)', topupWith('amount', '0.001'), 400, 'validation_failed', 'amount'],
  ['an amount of 1e21', topupWith('amount', '1e21'), 400, 'validation_failed', 'amount'],
  [
    'an amount above the operator maximum (5000.01)',
    topupWith('amount', '5000.01'),
    422,
    'amount_out_of_range',
    'amount',
  ],
  ['an amount below the operator minimum (9.99)', topupWith('amount', '9.99'), 422, 'amount_out_of_range', 'amount'],
  ['a 5,000-digit phone', topupWith('phone', json('9'.repeat(5000))), 400, 'validation_failed', 'phone'],
  ['a phone with letters', topupWith('phone', json('+91987654ABCD')), 400, 'validation_failed', 'phone'],
  [
    'a phone of another country (Bangladesh)',
    topupWith('phone', json(SANDBOX_PHONES.BD('0001'))),
    400,
    'validation_failed',
    'phone',
  ],
  ['a NUL byte in the phone', topupWith('phone', json('+9198765\u00000001')), 400, 'validation_failed', 'phone'],
  [
    'a NUL byte in the reference',
    json({ ...VALID_TOPUP, reference: 'inv\u0000001' }),
    400,
    'validation_failed',
    'reference',
  ],
  [
    'a line feed in the reference',
    json({ ...VALID_TOPUP, reference: 'inv\n001' }),
    400,
    'validation_failed',
    'reference',
  ],
  [
    'a C1 control character (NEL) in the reference',
    json({ ...VALID_TOPUP, reference: 'inv\u0085001' }),
    400,
    'validation_failed',
    'reference',
  ],
  [
    'half of a surrogate pair in the reference',
    `${json(VALID_TOPUP).slice(0, -1)},"reference":"inv\\ud83d001"}`,
    400,
    'validation_failed',
    'reference',
  ],
  [
    'a reference of 101 characters',
    json({ ...VALID_TOPUP, reference: 'r'.repeat(101) }),
    400,
    'validation_failed',
    'reference',
  ],
  ['a reference that is a number', json({ ...VALID_TOPUP, reference: 12345 }), 400, 'validation_failed', 'reference'],
  ['an unknown field', json({ ...VALID_TOPUP, tip: 5 }), 400, 'validation_failed', 'tip'],
  [
    'a "__proto__" key',
    `${json(VALID_TOPUP).slice(0, -1)},"__proto__":{"amount":1}}`,
    400,
    'validation_failed',
    'body',
  ],
  [
    'a "constructor.prototype" key',
    `${json(VALID_TOPUP).slice(0, -1)},"constructor":{"prototype":{"amount":1}}}`,
    400,
    'validation_failed',
    'body',
  ],
  [
    'an operator of another corridor (Grameenphone, BD)',
    topupWith('operator_id', '201'),
    404,
    'operator_not_found_or_wrong_corridor',
    'operator_id',
  ],
  [
    'an operator id that does not exist',
    topupWith('operator_id', '999'),
    404,
    'operator_not_found_or_wrong_corridor',
    'operator_id',
  ],
  ['a fractional operator id', topupWith('operator_id', '101.5'), 400, 'validation_failed', 'operator_id'],
  ['an operator id beyond 32 bits', topupWith('operator_id', '1e12'), 400, 'validation_failed', 'operator_id'],
  ['a missing phone', json({ operator_id: 101, amount: 100 }), 400, 'validation_failed', 'phone'],
  [
    'a "valueOf" key, which names a built-in of every object',
    json({ ...VALID_TOPUP, valueOf: 'x' }),
    400,
    'validation_failed',
    'valueOf',
  ],
  ['a "toString" key', json({ ...VALID_TOPUP, toString: 1 }), 400, 'validation_failed', 'toString'],
  ...validateOnlyCases(topupWith),
  [
    'a reference nested 5,000 arrays deep',
    `${json(VALID_TOPUP).slice(0, -1)},"reference":${'['.repeat(5000)}${']'.repeat(5000)}}`,
    400,
    'validation_failed',
    'reference',
  ],
];

const BILL_INFO_CASES: Case[] = [
  ['malformed JSON', '{"biller_id": 1005,', 400, 'validation_failed', 'body'],
  ['a JSON array instead of an object', json([{ biller_id: 1005 }]), 400, 'validation_failed', 'body'],
  ['a JSON null', 'null', 400, 'validation_failed', 'body'],
  [
    'the biller id as a string',
    json({ biller_id: '1005', consumer_number: '1234560001' }),
    400,
    'validation_failed',
    'biller_id',
  ],
  [
    'a fractional biller id',
    json({ biller_id: 1005.5, consumer_number: '1234560001' }),
    400,
    'validation_failed',
    'biller_id',
  ],
  ['a biller id of 1e400', '{"biller_id":1e400,"consumer_number":"1234560001"}', 400, 'validation_failed', 'biller_id'],
  [
    'a NUL byte in the consumer number',
    json({ biller_id: 1005, consumer_number: '123456\u00000001' }),
    400,
    'validation_failed',
    'consumer_number',
  ],
  [
    'a 5,000-character consumer number',
    json({ biller_id: 1005, consumer_number: '1'.repeat(5000) }),
    400,
    'validation_failed',
    'consumer_number',
  ],
  [
    'params as an array',
    json({ biller_id: 1006, consumer_number: '123456780001', params: ['1234'] }),
    400,
    'validation_failed',
    'params',
  ],
  [
    'a number as a param value',
    json({ biller_id: 1006, consumer_number: '123456780001', params: { billing_unit: 1234 } }),
    400,
    'validation_failed',
    'params',
  ],
  [
    'a NUL byte in a param value',
    json({ biller_id: 1006, consumer_number: '123456780001', params: { billing_unit: '12\u000034' } }),
    400,
    'validation_failed',
    'params.billing_unit',
  ],
  [
    'a "__proto__" key inside params',
    '{"biller_id":1006,"consumer_number":"123456780001","params":{"__proto__":{"billing_unit":"1234"}}}',
    400,
    'validation_failed',
    'body',
  ],
  [
    'an unknown field',
    json({ biller_id: 1005, consumer_number: '1234560001', amount: 500 }),
    400,
    'validation_failed',
    'amount',
  ],
  [
    'a "constructor" key inside params',
    json({ biller_id: 1005, consumer_number: '1234560001', params: { constructor: 'x' } }),
    400,
    'validation_failed',
    'params.constructor',
  ],
  [
    'a "hasOwnProperty" key inside params',
    json({ biller_id: 1005, consumer_number: '1234560001', params: { hasOwnProperty: 'x' } }),
    400,
    'validation_failed',
    'params.hasOwnProperty',
  ],
  [
    'params nested 10,000 objects deep',
    `{"biller_id":1005,"consumer_number":"1234560001","params":${'{"a":'.repeat(10000)}1${'}'.repeat(10000)}}`,
    400,
    'validation_failed',
    'params',
  ],
  [
    'a biller of another corridor',
    json({ biller_id: 2001, consumer_number: '1234560001' }),
    404,
    'operator_not_found_or_wrong_corridor',
    'biller_id',
  ],
];

const VALID_PAYMENT = { biller_id: 1005, consumer_number: '1234560001', amount: 500 };
const paymentWith = (field: string, rawValue: string): string => bodyWith(VALID_PAYMENT, field, rawValue);

const PAY_BILL_CASES: Case[] = [
  ['malformed JSON', '{"biller_id": 1005, "amount": 5', 400, 'validation_failed', 'body'],
  ['a JSON array instead of an object', json([VALID_PAYMENT]), 400, 'validation_failed', 'body'],
  ['a JSON string', json('pay'), 400, 'validation_failed', 'body'],
  ['the amount as a string "500"', paymentWith('amount', '"500"'), 400, 'validation_failed', 'amount'],
  ['the amount 1e309', paymentWith('amount', '1e309'), 400, 'validation_failed', 'amount'],
  ['the literal NaN (not JSON)', paymentWith('amount', 'NaN'), 400, 'validation_failed', 'body'],
  ['a negative amount', paymentWith('amount', '-500'), 400, 'validation_failed', 'amount'],
  ['a zero amount', paymentWith('amount', '0'), 400, 'validation_failed', 'amount'],
  ['an amount with three decimals (500.001)', paymentWith('amount', '500.001'), 400, 'validation_failed', 'amount'],
  ['an amount of 1e21', paymentWith('amount', '1e21'), 400, 'validation_failed', 'amount'],
  [
    'a NUL byte in the reference',
    json({ ...VALID_PAYMENT, reference: 'bill\u0000' }),
    400,
    'validation_failed',
    'reference',
  ],
  [
    'half of a surrogate pair in the reference',
    `${json(VALID_PAYMENT).slice(0, -1)},"reference":"\\udc00"}`,
    400,
    'validation_failed',
    'reference',
  ],
  ['an unknown field', json({ ...VALID_PAYMENT, operator_id: 101 }), 400, 'validation_failed', 'operator_id'],
  ...validateOnlyCases(paymentWith),
  [
    'a "__proto__" key',
    `${json(VALID_PAYMENT).slice(0, -1)},"__proto__":{"amount":1}}`,
    400,
    'validation_failed',
    'body',
  ],
];

describe('hostile input is refused without moving money', () => {
  let service: TestService;
  let partner: Partner;

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres' });
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await service.close();
  });
  beforeEach(async () => {
    partner = new Partner(service, (await service.createPartner('IN')).sandboxKey);
  });

  describe('POST /topup', () => {
    it.each(TOPUP_BODY_CASES)('refuses %s', async (_, body, status, code, field) => {
      expectRefusal(await partner.post('/topup', { body }), status, code, field);
      await partner.expectNoMoneyMoved();
    });

    it('says a missing field is required, and a field of the wrong type what it must be', async () => {
      const { phone: _, ...withoutPhone } = VALID_TOPUP;
      const missing = await partner.post('/topup', { body: json(withoutPhone) });
      expect(missing.body).toEqual({ error: 'validation_failed', detail: 'phone: is required' });
      const wrongType = await partner.post('/topup', { body: json({ ...VALID_TOPUP, phone: 919876540001 }) });
      expect(wrongType.body).toEqual({ error: 'validation_failed', detail: 'phone: must be a string' });
      await partner.expectNoMoneyMoved();
    });

    it('refuses a 2 MB body with 413', async () => {
      const body = json({ ...VALID_TOPUP, reference: 'x'.repeat(2 * 1024 * 1024) });
      expectRefusal(await partner.post('/topup', { body }), 413, 'validation_failed', 'body');
      await partner.expectNoMoneyMoved();
    });

    it('refuses headers over 16 KiB with 431 and the Error body', async () => {
      const answer = await partner.post('/topup', {
        body: json(VALID_TOPUP),
        headers: { authorization: `Bearer ${'k'.repeat(20_000)}` },
      });
      expectRefusal(answer, 431, 'validation_failed', 'headers');
      await partner.expectNoMoneyMoved();
    });

    it('refuses a body that is not valid UTF-8 with 400 naming the body', async () => {
      const text = json({ ...VALID_TOPUP, reference: 'ab' });
      const body = Buffer.concat([
        Buffer.from(text.slice(0, -3)),
        Buffer.from([0xff, 0xfe]),
        Buffer.from(text.slice(-3)),
      ]);
      expectRefusal(await partner.post('/topup', { body }), 400, 'validation_failed', 'body');
      await partner.expectNoMoneyMoved();
    });

    it('refuses JSON declared in another charset than UTF-8 with 415, and takes utf-8 however it is written', async () => {
      for (const contentType of [
        'application/json; charset=utf-16',
        'application/json; charset=latin1',
        'application/json;charset="ISO-8859-1"',
      ]) {
        expectRefusal(
          await partner.post('/topup', { body: json(VALID_TOPUP), headers: { 'content-type': contentType } }),
          415,
          'validation_failed',
          'Content-Type',
        );
      }
      await partner.expectNoMoneyMoved();
      expect(
        (
          await partner.post('/topup', {
            body: json(VALID_TOPUP),
            headers: { 'content-type': 'application/json; charset=UTF-8' },
          })
        ).status,
      ).toBe(200);
    });

    it('refuses a text/plain body with 415', async () => {
      expectRefusal(
        await partner.post('/topup', { body: json(VALID_TOPUP), headers: { 'content-type': 'text/plain' } }),
        415,
        'validation_failed',
        'Content-Type',
      );
      await partner.expectNoMoneyMoved();
    });

    it('refuses a form-encoded body with 415', async () => {
      const body = 'operator_id=101&phone=%2B919876540001&amount=100';
      expectRefusal(
        await partner.post('/topup', { body, headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
        415,
        'validation_failed',
        'Content-Type',
      );
      await partner.expectNoMoneyMoved();
    });

    it('refuses a body sent without any Content-Type with 415', async () => {
      expectRefusal(
        await partner.post('/topup', { body: Buffer.from(json(VALID_TOPUP)), headers: { 'content-type': '' } }),
        415,
        'validation_failed',
        'Content-Type',
      );
      await partner.expectNoMoneyMoved();
    });

    it('refuses a request with neither body nor Content-Type', async () => {
      expectRefusal(
        await partner.post('/topup', { headers: { 'content-type': '' } }),
        400,
        'validation_failed',
        'body',
      );
      await partner.expectNoMoneyMoved();
    });

    it('refuses a missing Idempotency-Key and one shorter than 8 characters', async () => {
      expectRefusal(
        await partner.post('/topup', { body: json(VALID_TOPUP), headers: { 'idempotency-key': '' } }),
        400,
        'idempotency_key_required',
      );
      expectRefusal(
        await partner.post('/topup', { body: json(VALID_TOPUP), headers: { 'idempotency-key': 'short' } }),
        400,
        'validation_failed',
        'Idempotency-Key',
      );
      await partner.expectNoMoneyMoved();
    });

    it.each<[string, (key: string) => string]>([
      ['no Authorization header', () => ''],
      ['a key that was never issued', () => `Bearer svc_test_${'A'.repeat(32)}`],
      ['a malformed key', () => 'Bearer not-a-key'],
      ['a Basic credential', () => `Basic ${Buffer.from('partner:secret').toString('base64')}`],
      [
        'its own key with the last character changed',
        (key) => `Bearer ${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`,
      ],
      ['its own key as a live key', (key) => `Bearer ${key.replace('svc_test_', 'svc_live_')}`],
    ])('refuses %s with 401 invalid_api_key', async (_, authorization) => {
      expectRefusal(
        await partner.post('/topup', {
          body: json(VALID_TOPUP),
          headers: { authorization: authorization(partner.key) },
        }),
        401,
        'invalid_api_key',
      );
      await partner.expectNoMoneyMoved();
    });
  });

  describe('POST /bill-info', () => {
    it.each(BILL_INFO_CASES)('refuses %s', async (_, body, status, code, field) => {
      expectRefusal(await partner.post('/bill-info', { body }), status, code, field);
      await partner.expectNoMoneyMoved();
    });

    it('refuses a text/plain body with 415 and a 2 MB body with 413', async () => {
      const body = json({ biller_id: 1005, consumer_number: '1234560001' });
      expectRefusal(
        await partner.post('/bill-info', { body, headers: { 'content-type': 'text/plain' } }),
        415,
        'validation_failed',
        'Content-Type',
      );
      const huge = json({
        biller_id: 1005,
        consumer_number: '1234560001',
        params: { note: 'x'.repeat(2 * 1024 * 1024) },
      });
      expectRefusal(await partner.post('/bill-info', { body: huge }), 413, 'validation_failed', 'body');
    });

    it('refuses a request without a key with 401', async () => {
      const body = json({ biller_id: 1005, consumer_number: '1234560001' });
      expectRefusal(await partner.post('/bill-info', { body, headers: { authorization: '' } }), 401, 'invalid_api_key');
    });
  });

  describe('POST /pay-bill (after a 500.00 bill was fetched)', () => {
    beforeEach(async () => {
      await partner.fetchBill();
    });

    it.each(PAY_BILL_CASES)('refuses %s', async (_, body, status, code, field) => {
      expectRefusal(await partner.post('/pay-bill', { body }), status, code, field);
      await partner.expectNoMoneyMoved();
    });

    it('refuses text/plain with 415, a 2 MB body with 413 and a missing Idempotency-Key', async () => {
      expectRefusal(
        await partner.post('/pay-bill', { body: json(VALID_PAYMENT), headers: { 'content-type': 'text/plain' } }),
        415,
        'validation_failed',
        'Content-Type',
      );
      expectRefusal(
        await partner.post('/pay-bill', { body: json({ ...VALID_PAYMENT, reference: 'x'.repeat(2 * 1024 * 1024) }) }),
        413,
        'validation_failed',
        'body',
      );
      expectRefusal(
        await partner.post('/pay-bill', { body: json(VALID_PAYMENT), headers: { 'idempotency-key': '' } }),
        400,
        'idempotency_key_required',
      );
      await partner.expectNoMoneyMoved();
    });

    it('refuses a wrong key with 401', async () => {
      expectRefusal(
        await partner.post('/pay-bill', {
          body: json(VALID_PAYMENT),
          headers: { authorization: `Bearer svc_test_${'z'.repeat(32)}` },
        }),
        401,
        'invalid_api_key',
      );
      await partner.expectNoMoneyMoved();
    });
  });

  describe('query parameters of the lists', () => {
    it('refuses a parameter a list does not define, naming it, instead of ignoring a typo', async () => {
      expectRefusal(await partner.get('/operators?phon=%2B919876540001'), 400, 'validation_failed', 'phon');
      expectRefusal(await partner.get('/billers?categroy=ELECTRICITY'), 400, 'validation_failed', 'categroy');
      expectRefusal(await partner.get('/webhook-deliveries?stat=FAILED'), 400, 'validation_failed', 'stat');
      expectRefusal(await service.admin('GET', '/orders?held=true&limt=5'), 400, 'validation_failed', 'limt');
      expectRefusal(await service.admin('GET', '/webhook-deliveries?partner=x'), 400, 'validation_failed', 'partner');
    });

    it('takes a limit only as plain digits in range', async () => {
      for (const limit of ['1e1', '0x10', '+5', '0', '101', '5.0', '']) {
        expectRefusal(
          await partner.get(`/webhook-deliveries?limit=${encodeURIComponent(limit)}`),
          400,
          'validation_failed',
          'limit',
        );
      }
      expect((await partner.get('/webhook-deliveries?limit=5')).status).toBe(200);
      expectRefusal(await service.admin('GET', '/orders?held=true&limit=1e3'), 400, 'validation_failed', 'limit');
      expect((await service.admin('GET', '/orders?held=true&limit=1000')).status).toBe(200);
    });

    it("refuses an operator's delivery filter with an unknown state", async () => {
      expectRefusal(await service.admin('GET', '/webhook-deliveries?state=BOGUS'), 400, 'validation_failed', 'state');
      expect((await service.admin('GET', '/webhook-deliveries?state=FAILED')).status).toBe(200);
    });
  });

  describe('GET /transactions/{order_id}', () => {
    it("answers 404 not_found for another partner's order", async () => {
      const owner = new Partner(service, (await service.createPartner('IN', 'Order Owner')).sandboxKey);
      const placed = await owner.post('/topup', { body: json(VALID_TOPUP) });
      expect(placed.status).toBe(200);
      expect((await owner.get(`/transactions/${placed.body.order_id}`)).status).toBe(200);
      expectRefusal(await partner.get(`/transactions/${placed.body.order_id}`), 404, 'not_found');
      await partner.expectNoMoneyMoved();
    });

    it('answers 404 not_found for a 1,000-character order id', async () => {
      expectRefusal(await partner.get(`/transactions/${'o'.repeat(1000)}`), 404, 'not_found');
    });

    it('answers 404 not_found for an order id of emoji', async () => {
      expectRefusal(await partner.get(`/transactions/${encodeURIComponent('🙂💸')}`), 404, 'not_found');
    });

    it('refuses a NUL byte in the order id', async () => {
      expectRefusal(await partner.get('/transactions/ord_%00abc'), 400, 'validation_failed', 'order_id');
    });

    it('refuses broken percent-encoding in the order id', async () => {
      expectRefusal(await partner.get('/transactions/ord_%ED%A0%80'), 400, 'validation_failed', 'path');
    });

    it('refuses a control character in a list filter', async () => {
      expectRefusal(await partner.get('/transactions?reference=inv%00001'), 400, 'validation_failed', 'reference');
    });

    it('refuses a request without a key with 401', async () => {
      expectRefusal(await service.request('GET', '/v1/partner/transactions/ord_anything'), 401, 'invalid_api_key');
    });
  });

  describe('printable Unicode in the reference', () => {
    it.each([
      ['emoji, including a joined family and a skin tone', 'paid 💸 by 👨‍👩‍👧 👍🏽'],
      ['right-to-left text with direction marks', '\u200fשלום\u200e inv-7 \u202bمرحبا\u202c'],
      ['combining characters', 'cafe\u0301 Zalgo: Z\u0351\u0360\u0327a\u0334l\u0336go'],
      ['Devanagari and Bengali', 'रिचार्ज রিচার্জ'],
    ])('accepts %s and echoes it exactly', async (_, reference) => {
      const placed = await partner.post('/topup', { body: json({ ...VALID_TOPUP, reference }) });
      expect(placed.status).toBe(200);
      expect(placed.body.reference).toBe(reference);
      expect((await partner.get(`/transactions/${placed.body.order_id}`)).body.reference).toBe(reference);
      // The list is read from the orders read model, which shows a new order once the projector has passed it.
      await service.settle();
      const listed = await partner.get(`/transactions?reference=${encodeURIComponent(reference)}`);
      expect(listed.body.transactions.map((order: { order_id: string }) => order.order_id)).toEqual([
        placed.body.order_id,
      ]);
    });
  });

  it('leaves the money invariants intact', async () => {
    await service.settle();
    expect((await service.verify()).body).toMatchObject({ ok: true, breaches: [] });
  });
});

describe('hostile text on PostgreSQL, which cannot store NUL bytes', () => {
  let service: TestService;
  let partner: Partner;

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres' });
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await service.close();
  });
  beforeEach(async () => {
    partner = new Partner(service, (await service.createPartner('IN')).sandboxKey);
  });

  it('refuses NUL bytes in the phone and the reference of a topup', async () => {
    expectRefusal(
      await partner.post('/topup', { body: topupWith('phone', json('+91987654\u00000001')) }),
      400,
      'validation_failed',
      'phone',
    );
    expectRefusal(
      await partner.post('/topup', { body: json({ ...VALID_TOPUP, reference: '\u0000' }) }),
      400,
      'validation_failed',
      'reference',
    );
    await partner.expectNoMoneyMoved();
  });

  it('refuses half of a surrogate pair, which jsonb cannot store', async () => {
    expectRefusal(
      await partner.post('/topup', { body: `${json(VALID_TOPUP).slice(0, -1)},"reference":"\\ud800"}` }),
      400,
      'validation_failed',
      'reference',
    );
    await partner.expectNoMoneyMoved();
  });

  it('refuses NUL bytes in a bill consumer number, a pay-bill reference and a biller param', async () => {
    expectRefusal(
      await partner.post('/bill-info', { body: json({ biller_id: 1005, consumer_number: '12345\u000060001' }) }),
      400,
      'validation_failed',
      'consumer_number',
    );
    expectRefusal(
      await partner.post('/bill-info', {
        body: json({ biller_id: 1006, consumer_number: '123456780001', params: { billing_unit: '\u00001234' } }),
      }),
      400,
      'validation_failed',
      'params.billing_unit',
    );
    await partner.fetchBill();
    expectRefusal(
      await partner.post('/pay-bill', { body: json({ ...VALID_PAYMENT, reference: 'a\u0000b' }) }),
      400,
      'validation_failed',
      'reference',
    );
    await partner.expectNoMoneyMoved();
  });

  it('refuses NUL bytes in the order id and in query filters', async () => {
    expectRefusal(await partner.get('/transactions/%00'), 400, 'validation_failed', 'order_id');
    expectRefusal(await partner.get('/transactions?cursor=%00'), 400, 'validation_failed', 'cursor');
    expectRefusal(await partner.get('/operators?phone=%2B91987654%000001'), 400, 'validation_failed', 'phone');
  });

  it('refuses cursors this endpoint never wrote, whatever they hold, with 400 naming cursor', async () => {
    const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const forged = [
      ['1', 'ord_x'],
      ['0000-01-01T00:00:00.000Z', 'ord_x'],
      ['+275760-09-13T00:00:00.000Z', 'ord_x'],
      ['2020-02-30T00:00:00.000Z', 'ord_x'],
      ['2020-01-01T00:00:00Z', 'ord_x'],
      ['2020-01-01T00:00:00.000Z', 'a\u0000b'],
      ['2020-01-01T00:00:00.000Z', 'x'.repeat(101)],
    ];
    for (const cursor of forged)
      expectRefusal(await partner.get(`/transactions?cursor=${cursorOf(cursor)}`), 400, 'validation_failed', 'cursor');
    expect(
      (
        await partner.get(
          `/transactions?cursor=${cursorOf(['2020-01-01T00:00:00.000Z', 'ord_0123456789abcdef01234567'])}`,
        )
      ).status,
    ).toBe(200);
  });

  it('refuses dates the database cannot hold or the calendar does not have, with 400 naming the filter', async () => {
    for (const [name, value] of [
      ['created_from', '0000-01-01'],
      ['created_to', '0000-12-31T00:00:00Z'],
      ['created_from', '9999-12-31T23:59:59.999-23:59'],
      ['created_to', '2020-02-30'],
      ['created_from', '2021-13-01'],
    ]) {
      expectRefusal(
        await partner.get(`/transactions?${name}=${encodeURIComponent(value)}`),
        400,
        'validation_failed',
        name,
      );
    }
    expect((await partner.get('/transactions?created_from=2020-02-29&created_to=9999-12-31T00:00:00Z')).status).toBe(
      200,
    );
  });

  it('refuses an operator credit that would take the balance past 15 integer digits; the wallet stays readable', async () => {
    const { partnerId, sandboxKey } = await service.createPartner('IN');
    await service.settle(); // the sandbox's starting 1,000.00 is granted
    const credit = (amount: string) =>
      service.admin('POST', `/partners/${partnerId}/wallet-credits`, {
        environment: 'sandbox',
        amount,
        reference: `big ${amount}`,
      });
    expectRefusal(await credit('999999999999999'), 400, 'validation_failed', 'amount');
    expect((await credit('999999999998999.99')).status).toBe(200);
    expectRefusal(await credit('0.01'), 400, 'validation_failed', 'amount');
    const rich = new Partner(service, sandboxKey);
    expect((await rich.get('/balance')).body.available).toBe('999999999999999.99');
    expect((await rich.post('/topup', { body: json(VALID_TOPUP) })).status).toBe(200);
    await service.settle();
    expect((await rich.get('/transactions')).status).toBe(200);
    expect((await service.admin('GET', `/partners/${partnerId}`)).status).toBe(200);
  });

  it('stores and echoes emoji and right-to-left text exactly', async () => {
    const reference = '\u200fשלום 💸 e\u0301';
    const placed = await partner.post('/topup', { body: json({ ...VALID_TOPUP, reference }) });
    expect(placed.status).toBe(200);
    expect(placed.body.reference).toBe(reference);
    expect((await partner.get(`/transactions/${placed.body.order_id}`)).body.reference).toBe(reference);
  });

  it('leaves the money invariants intact', async () => {
    await service.settle();
    expect((await service.verify()).body).toMatchObject({ ok: true, breaches: [] });
  });
});
