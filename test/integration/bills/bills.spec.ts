import { randomUUID } from 'node:crypto';
import { expectRefusal } from '../../support/error-assertions';
import { dataOf, placedOrderOf } from '../../support/partner-client';
import { HttpAnswer, STORES, TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

const DECIMAL_2 = /^\d+\.\d{2}$/;
const DECIMAL_4 = /^\d+\.\d{4}$/;
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const YEAR_MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

const BESCOM = 1005;
const MSEDCL = 1006;
const DESCO_BD = 2001;
const SP_GROUP_SG = 3001;

describe.each(STORES)('bill payment (%s store)', (store) => {
  let service: TestService;
  let key: string;
  let partnerId: string;

  beforeAll(async () => {
    service = await TestService.start({ store });
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await service.close();
  });
  beforeEach(async () => {
    ({ sandboxKey: key, partnerId } = await service.createPartner('IN'));
  });

  // Refusals are sent raw (any body, any header); accepted calls go through the generated client (clients/typescript).
  const billInfo = (body: Record<string, unknown>, token = key): Promise<HttpAnswer> =>
    service.partner('POST', '/bill-info', token, body);
  const payBill = (
    body: Record<string, unknown>,
    idempotencyKey: string | null = `bill-${randomUUID()}`,
  ): Promise<HttpAnswer> =>
    service.partner(
      'POST',
      '/pay-bill',
      key,
      body,
      idempotencyKey === null ? {} : { 'idempotency-key': idempotencyKey },
    );
  const client = () => service.client(key);
  const fetchBillInfo = (body: { biller_id: number; consumer_number: string; params?: Record<string, string> }) =>
    dataOf(client().POST('/v1/partner/bill-info', { body }));
  const pay = (body: { biller_id: number; consumer_number: string; amount: number; reference?: string }) =>
    placedOrderOf(
      client().POST('/v1/partner/pay-bill', {
        params: { header: { 'Idempotency-Key': `bill-${randomUUID()}` } },
        body,
      }),
    );
  const balance = async (): Promise<string> => (await dataOf(client().GET('/v1/partner/balance'))).available;
  const transaction = (orderId: string) =>
    dataOf(client().GET('/v1/partner/transactions/{order_id}', { params: { path: { order_id: orderId } } }));
  const today = (): string => service.clock.now().toISOString().slice(0, 10);
  /** Fetches the bill first, as a partner must, and returns its amount. */
  const fetchBill = async (consumerNumber: string, billerId = BESCOM): Promise<string> =>
    (await fetchBillInfo({ biller_id: billerId, consumer_number: consumerNumber })).amount;

  describe('GET /billers', () => {
    it("lists the billers of the partner's corridor with id, name, category, BBPS flag and parameters", async () => {
      const listed = await dataOf(client().GET('/v1/partner/billers'));
      expect(listed).toMatchObject({ corridor: 'IN', currency: 'INR' });
      expect(listed.count).toBe(listed.billers.length);
      const ids = listed.billers.map((biller) => biller.id);
      expect(ids).toEqual(expect.arrayContaining([1001, BESCOM, MSEDCL]));
      expect(ids).not.toContain(DESCO_BD);
      expect(ids).not.toContain(SP_GROUP_SG);
      for (const biller of listed.billers) {
        expect(biller).toEqual(
          expect.objectContaining({
            id: expect.any(Number),
            name: expect.any(String),
            category: expect.any(String),
            bbps: expect.any(Boolean),
          }),
        );
        // Not expect.any(Array): fetch parses JSON outside the test's realm, where Array is another constructor.
        expect(Array.isArray(biller.params)).toBe(true);
      }
      expect(listed.billers.find((biller) => biller.id === 1001)).toMatchObject({
        name: 'Airtel Postpaid',
        category: 'POSTPAID_MOBILE',
        bbps: true,
        params: [],
      });
      expect(listed.billers.find((biller) => biller.id === MSEDCL)).toMatchObject({
        category: 'ELECTRICITY',
        params: [{ name: 'billing_unit', required: true, pattern: '^[0-9]{4}$', label: expect.any(String) }],
      });
    });

    it('lists only the Bangladesh billers to a BD partner and only the Singapore billers to an SG partner', async () => {
      const bd = await service.createPartner('BD');
      const sg = await service.createPartner('SG');
      const bdBillers = (await service.partner('GET', '/billers', bd.sandboxKey)).body;
      const sgBillers = (await service.partner('GET', '/billers', sg.sandboxKey)).body;
      expect(bdBillers).toMatchObject({ corridor: 'BD', currency: 'BDT' });
      expect(sgBillers).toMatchObject({ corridor: 'SG', currency: 'SGD' });
      expect(bdBillers.billers.map((biller: { id: number }) => biller.id)).toContain(DESCO_BD);
      expect(bdBillers.billers.every((biller: { id: number }) => biller.id >= 2000 && biller.id < 3000)).toBe(true);
      expect(sgBillers.billers.map((biller: { id: number }) => biller.id)).toContain(SP_GROUP_SG);
      expect(sgBillers.billers.every((biller: { id: number }) => biller.id >= 3000 && biller.id < 4000)).toBe(true);
    });

    it('filters by category', async () => {
      const electricity = await dataOf(
        client().GET('/v1/partner/billers', { params: { query: { category: 'ELECTRICITY' } } }),
      );
      expect(electricity.count).toBeGreaterThan(0);
      expect(electricity.billers.every((biller) => biller.category === 'ELECTRICITY')).toBe(true);
      expect(electricity.billers.map((biller) => biller.id)).toEqual(expect.arrayContaining([BESCOM, MSEDCL]));
      expect(electricity.billers.map((biller) => biller.id)).not.toContain(1001);
    });

    it('refuses an unknown category with 400', async () => {
      expectRefusal(
        await service.partner('GET', '/billers?category=LOTTERY', key),
        400,
        'validation_failed',
        'category',
      );
      expectRefusal(
        await service.partner('GET', '/billers?category=electricity', key),
        400,
        'validation_failed',
        'category',
      );
    });
  });

  describe('POST /bill-info', () => {
    it('returns every BillInfo field in the documented format', async () => {
      const fetched = await fetchBillInfo({ biller_id: BESCOM, consumer_number: '1234560001' });
      expect(Object.keys(fetched).sort()).toEqual([
        'amount',
        'bill_period',
        'bill_reference',
        'biller_id',
        'biller_name',
        'consumer_number',
        'currency',
        'customer_name',
        'due_date',
        'fetched_at',
        'instructions',
      ]);
      expect(fetched).toEqual({
        biller_id: BESCOM,
        biller_name: 'Bangalore Electricity Supply Company (BESCOM)',
        consumer_number: '1234560001',
        customer_name: expect.any(String),
        amount: '500.00',
        currency: 'INR',
        due_date: expect.stringMatching(DATE),
        bill_period: expect.stringMatching(YEAR_MONTH),
        bill_reference: expect.any(String),
        fetched_at: service.clock.now().toISOString(),
        instructions: expect.stringContaining('pay-bill'),
      });
      expect(fetched.fetched_at).toMatch(DATE_TIME);
      expect(fetched.due_date >= today()).toBe(true);
    });

    it.each([
      ['0001', '500.00'],
      ['0002', '1500.00'],
      ['0003', '850.50'],
      ['0004', '2400.00'],
      ['0099', '0.00'],
    ])('gives the sandbox amount for a consumer number ending in %s (%s)', async (suffix, amount) => {
      const fetched = await fetchBillInfo({ biller_id: BESCOM, consumer_number: `123456${suffix}` });
      expect(fetched.amount).toBe(amount);
      expect(fetched.amount).toMatch(DECIMAL_2);
    });

    it('shows the bill ending in 0004 as overdue: its due date is in the past', async () => {
      const fetched = await fetchBillInfo({ biller_id: BESCOM, consumer_number: '1234560004' });
      expect(fetched.due_date < today()).toBe(true);
    });

    it('answers 404 not_found when the biller has no bill for the consumer number', async () => {
      expectRefusal(await billInfo({ biller_id: BESCOM, consumer_number: '1234567777' }), 404, 'not_found');
    });

    it('answers 404 operator_not_found_or_wrong_corridor for an unknown biller and for a biller of another corridor', async () => {
      expectRefusal(
        await billInfo({ biller_id: 9999, consumer_number: '1234560001' }),
        404,
        'operator_not_found_or_wrong_corridor',
        'biller_id',
      );
      expectRefusal(
        await billInfo({ biller_id: DESCO_BD, consumer_number: '1234560001' }),
        404,
        'operator_not_found_or_wrong_corridor',
        'biller_id',
      );
      expectRefusal(
        await billInfo({ biller_id: SP_GROUP_SG, consumer_number: '1234560001' }),
        404,
        'operator_not_found_or_wrong_corridor',
        'biller_id',
      );
    });

    it('refuses a bill of a biller that needs a parameter when the parameter is missing or malformed', async () => {
      expectRefusal(
        await billInfo({ biller_id: MSEDCL, consumer_number: '123456780001' }),
        400,
        'validation_failed',
        'params.billing_unit',
      );
      expectRefusal(
        await billInfo({ biller_id: MSEDCL, consumer_number: '123456780001', params: { billing_unit: '12a4' } }),
        400,
        'validation_failed',
        'params.billing_unit',
      );
      expectRefusal(
        await billInfo({ biller_id: BESCOM, consumer_number: '1234560001', params: { billing_unit: '1234' } }),
        400,
        'validation_failed',
        'params.billing_unit',
      );
      const fetched = await fetchBillInfo({
        biller_id: MSEDCL,
        consumer_number: '123456780001',
        params: { billing_unit: '4521' },
      });
      expect(fetched).toMatchObject({ biller_id: MSEDCL, amount: '500.00' });
    });

    it('needs a valid key', async () => {
      expectRefusal(
        await billInfo({ biller_id: BESCOM, consumer_number: '1234560001' }, `svc_test_${'Q'.repeat(32)}`),
        401,
        'invalid_api_key',
      );
    });
  });

  describe('POST /pay-bill', () => {
    it('places an Order with the biller, consumer number, a four-decimal amount and the balance after the debit', async () => {
      await fetchBill('1234560001');
      const paid = await pay({
        biller_id: BESCOM,
        consumer_number: '1234560001',
        amount: 500,
        reference: 'electricity-june',
      });
      expect(paid).toEqual({
        order_id: expect.any(String),
        status: 'PENDING',
        biller_id: BESCOM,
        consumer_number: '1234560001',
        amount_local: '500.0000',
        currency: 'INR',
        balance_after: '500.00',
        reference: 'electricity-june',
        created_at: expect.stringMatching(DATE_TIME),
      });
      expect(paid.amount_local).toMatch(DECIMAL_4);
      expect(paid).not.toHaveProperty('operator_id');
      expect(paid).not.toHaveProperty('phone');
      expect(await balance()).toBe('500.00');
    });

    it.each([
      [500.99, '500.9900', '499.01'],
      [499, '499.0000', '501.00'],
    ])('accepts %s for a 500.00 bill (within 1 unit)', async (amount, amountLocal, balanceAfter) => {
      await fetchBill('1234560001');
      expect(await pay({ biller_id: BESCOM, consumer_number: '1234560001', amount })).toMatchObject({
        amount_local: amountLocal,
        balance_after: balanceAfter,
      });
    });

    it.each([501.01, 498.99, 50])(
      'refuses %s for a 500.00 bill with 422 amount_out_of_range (more than 1 unit off)',
      async (amount) => {
        await fetchBill('1234560001');
        expectRefusal(
          await payBill({ biller_id: BESCOM, consumer_number: '1234560001', amount }),
          422,
          'amount_out_of_range',
          'amount',
        );
        expect(await balance()).toBe('1000.00');
      },
    );

    it('refuses a payment without a bill fetched first with 400 validation_failed', async () => {
      expectRefusal(
        await payBill({ biller_id: BESCOM, consumer_number: '1234560001', amount: 500 }),
        400,
        'validation_failed',
        'consumer_number',
      );
      await fetchBill('1234560001');
      expectRefusal(
        await payBill({ biller_id: BESCOM, consumer_number: '1234560003', amount: 850.5 }),
        400,
        'validation_failed',
        'consumer_number',
      );
      expect(await balance()).toBe('1000.00');
    });

    it('refuses a payment when the fetched bill is older than a day, until it is fetched again', async () => {
      await fetchBill('1234560001');
      service.clock.advance(24 * 3600_000 + 1_000);
      expectRefusal(
        await payBill({ biller_id: BESCOM, consumer_number: '1234560001', amount: 500 }),
        400,
        'validation_failed',
        'consumer_number',
      );
      await fetchBill('1234560001');
      expect(await pay({ biller_id: BESCOM, consumer_number: '1234560001', amount: 500 })).toMatchObject({
        status: 'PENDING',
      });
    });

    it('refuses to pay a bill of 0.00 with 422 amount_out_of_range', async () => {
      expect(await fetchBill('1234560099')).toBe('0.00');
      expectRefusal(
        await payBill({ biller_id: BESCOM, consumer_number: '1234560099', amount: 1 }),
        422,
        'amount_out_of_range',
      );
      expectRefusal(
        await payBill({ biller_id: BESCOM, consumer_number: '1234560099', amount: 0.5 }),
        422,
        'amount_out_of_range',
      );
      expect(await balance()).toBe('1000.00');
    });

    it('refuses a biller of another corridor with 404 operator_not_found_or_wrong_corridor', async () => {
      expectRefusal(
        await payBill({ biller_id: DESCO_BD, consumer_number: '1234560001', amount: 500 }),
        404,
        'operator_not_found_or_wrong_corridor',
        'biller_id',
      );
    });

    it('refuses a bill larger than the wallet with 402 insufficient_balance', async () => {
      await fetchBill('1234560004');
      expectRefusal(
        await payBill({ biller_id: BESCOM, consumer_number: '1234560004', amount: 2400 }),
        402,
        'insufficient_balance',
      );
      expect(await balance()).toBe('1000.00');
    });

    it('requires an Idempotency-Key (400 idempotency_key_required)', async () => {
      await fetchBill('1234560001');
      expectRefusal(
        await payBill({ biller_id: BESCOM, consumer_number: '1234560001', amount: 500 }, null),
        400,
        'idempotency_key_required',
      );
      expect(await balance()).toBe('1000.00');
    });

    it('settles a bill ending in 0001 as SUCCESS with an operator reference', async () => {
      await fetchBill('1234560001');
      const paid = await pay({ biller_id: BESCOM, consumer_number: '1234560001', amount: 500 });
      await service.settle();
      const final = await transaction(paid.order_id);
      expect(final).toMatchObject({
        status: 'SUCCESS',
        biller_id: BESCOM,
        consumer_number: '1234560001',
        amount_local: '500.0000',
        refunded_at: null,
      });
      expect(final.operator_ref).toEqual(expect.any(String));
      expect(final.settled_at).toMatch(DATE_TIME);
      expect(await balance()).toBe('500.00');
    });

    it('fails a bill ending in 0002 and refunds the wallet exactly once', async () => {
      const credited = await service.admin('POST', `/partners/${partnerId}/wallet-credits`, {
        environment: 'sandbox',
        amount: '1000.00',
        reference: 'bill test credit',
      });
      expect(credited.status).toBe(200);
      expect(await fetchBill('1234560002')).toBe('1500.00');
      const paid = await pay({ biller_id: BESCOM, consumer_number: '1234560002', amount: 1500 });
      expect(paid.balance_after).toBe('500.00');
      await service.settle();
      const final = await transaction(paid.order_id);
      expect(final).toMatchObject({ status: 'FAILED', operator_ref: null, settled_at: null });
      expect(final.refunded_at).toMatch(DATE_TIME);
      expect(await balance()).toBe('2000.00');
      await service.settle();
      expect(await balance()).toBe('2000.00');
    });
  });

  describe('GET /operators?phone=', () => {
    it('returns only the detected operator of the number', async () => {
      const detected = await dataOf(
        client().GET('/v1/partner/operators', { params: { query: { phone: '+919876540001' } } }),
      );
      expect(detected).toMatchObject({ corridor: 'IN', currency: 'INR', count: 1 });
      expect(detected.operators).toEqual([
        {
          id: 101,
          api_operator_id: expect.any(String),
          name: 'Airtel',
          category: 'MOBILE_PREPAID',
          min_amount: '10.00',
          max_amount: '5000.00',
          local_currency: 'INR',
        },
      ]);
    });

    it('lists every operator of the corridor without a phone', async () => {
      const all = await dataOf(client().GET('/v1/partner/operators'));
      expect(all.count).toBeGreaterThan(1);
      expect(all.operators.map((operator) => operator.id)).toContain(101);
    });

    it.each([
      ['letters', '+91987654ABCD'],
      ['a number of another country', '+8801712340001'],
      ['too few digits', '+9198765'],
    ])('refuses a phone with %s with 400 naming phone', async (_, phone) => {
      expectRefusal(
        await service.partner('GET', `/operators?phone=${encodeURIComponent(phone)}`, key),
        400,
        'validation_failed',
        'phone',
      );
    });
  });

  it('leaves the money invariants intact', async () => {
    await service.settle();
    expect((await service.verify()).body).toMatchObject({ ok: true, breaches: [] });
  });
});
