import { SANDBOX_PHONES, TestService } from '../../support/test-service';

const BESCOM = 1005;

/**
 * Amounts are read from the JSON number's own text. A literal a double cannot carry exactly would
 * otherwise be rounded before anyone looks at it (199.999999999999999 becomes 200).
 */
describe('amounts are read exactly as sent', () => {
  let service: TestService;
  let key: string;

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres' });
    ({ sandboxKey: key } = await service.createPartner('IN'));
  });
  afterAll(async () => {
    await service.close();
  });

  const rawPost = (path: string, json: string, headers: Record<string, string> = {}) =>
    service.request('POST', path, {
      token: key,
      rawBody: json,
      headers: { 'content-type': 'application/json', ...headers },
    });
  const topupWith = (amountLiteral: string, idempotencyKey: string) =>
    rawPost(
      '/v1/partner/topup',
      `{"operator_id":101,"phone":"${SANDBOX_PHONES.IN('0001')}","amount":${amountLiteral}}`,
      { 'idempotency-key': idempotencyKey },
    );
  const balance = async () => (await service.partner('GET', '/balance', key)).body.available;

  it.each(['199.999999999999999', '100.0000000000000001', '10000000000000000.01', '1e400'])(
    'a topup of %s is refused with validation_failed on the amount, and no money moves',
    async (literal) => {
      const before = await balance();
      const answer = await topupWith(literal, `exact-${literal}`);
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 400,
        body: { error: 'validation_failed', detail: expect.stringMatching(/^amount: /) },
      });
      expect(await balance()).toBe(before);
    },
  );

  it.each([
    ['100.001', /^amount: must be a plain decimal with at most 2 decimal places/],
    ['199.995', /^amount: must be a plain decimal with at most 2 decimal places/],
  ])('a topup of %s, with more decimals than the currency has, is refused', async (literal, detail) => {
    const answer = await topupWith(literal, `decimals-${literal}`);
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 400,
      body: { error: 'validation_failed', detail: expect.stringMatching(detail) },
    });
  });

  it.each([
    ['100.50', '100.5000'],
    ['1.005e2', '100.5000'],
    ['100.5000000000000', '100.5000'],
  ])('a topup of %s is taken as exactly %s', async (literal, amountLocal) => {
    const answer = await topupWith(literal, `taken-${literal}`);
    expect(answer.status).toBe(200);
    expect(answer.body.amount_local).toBe(amountLocal);
  });

  it('a bill payment whose amount a double cannot carry exactly is refused, and no money moves', async () => {
    const bill = await service.partner('POST', '/bill-info', key, { biller_id: BESCOM, consumer_number: '1234560001' });
    expect(bill.status).toBe(200);
    const before = await balance();
    const answer = await rawPost(
      '/v1/partner/pay-bill',
      `{"biller_id":${BESCOM},"consumer_number":"1234560001","amount":500.0000000000000001}`,
      { 'idempotency-key': 'exact-bill-1' },
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: 'validation_failed', detail: expect.stringMatching(/^amount: /) });
    expect(await balance()).toBe(before);
  });

  it('an agent tool call with such an amount is refused before the tool runs, and no money moves', async () => {
    const before = await balance();
    const answer = await rawPost(
      '/v1/mcp',
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"service_topup","arguments":{"operator_id":101,"phone":"${SANDBOX_PHONES.IN('0001')}","amount":199.999999999999999,"idempotency_key":"exact-mcp-0001"}}}`,
      { accept: 'application/json, text/event-stream' },
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: 'validation_failed',
      detail: expect.stringMatching(/^params\.arguments\.amount: /),
    });
    await service.settle();
    expect(await balance()).toBe(before);
  });
});
