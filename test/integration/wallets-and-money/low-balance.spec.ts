import { randomUUID } from 'node:crypto';
import { RecordingReceiver } from '../../support/recording-receiver';
import { SANDBOX_PHONES, TEST_ADMIN_TOKEN, TestService } from '../../support/test-service';

/*
 * wallet.low_balance: a partner sets a threshold for the key's environment; each time a debit
 * takes the available balance below it, one notice goes out (webhook and events feed), however
 * many debits run at once; the next one only after the balance went back to it or above.
 */
describe('low-balance notice', () => {
  let service: TestService;
  let receiver: RecordingReceiver;

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres', env: { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' } });
    receiver = await RecordingReceiver.start();
  });
  afterAll(async () => {
    await receiver?.stop();
    await service?.close();
  });

  const settings = (key: string, body: Record<string, unknown>) => service.partner('PATCH', '/settings', key, body);
  const topup = (key: string) =>
    service.topup(key, { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 100 }, `low-${randomUUID()}`);
  const notices = async (key: string) => {
    const feed = await service.partner('GET', '/events?limit=200', key);
    expect(feed.status).toBe(200);
    return (feed.body.events as { event: string }[]).filter((event) => event.event === 'wallet.low_balance');
  };
  const webhooksOf = (event: string) =>
    receiver.received.filter((webhook) => (JSON.parse(webhook.rawBody) as { event: string }).event === event);

  it('takes a decimal threshold in the wallet currency, refuses anything else, and turns off with null', async () => {
    const { sandboxKey } = await service.createPartner('IN', 'Threshold Partner');
    const set = await settings(sandboxKey, { low_balance_threshold: '250.5' });
    expect(set.status).toBe(200);
    expect(set.body.low_balance_threshold).toBe('250.50');
    expect((await service.partner('GET', '/settings', sandboxKey)).body.low_balance_threshold).toBe('250.50');
    for (const bad of ['abc', '-5', '0', '1.234', '1e3', 12, true]) {
      const refused = await settings(sandboxKey, { low_balance_threshold: bad });
      expect({ bad, status: refused.status, error: refused.body.error }).toEqual({
        bad,
        status: 400,
        error: 'validation_failed',
      });
    }
    const off = await settings(sandboxKey, { low_balance_threshold: null });
    expect(off.status).toBe(200);
    expect(off.body.low_balance_threshold).toBeNull();
  });

  it('announces one crossing once under concurrent debits, and again only after the balance went back above', async () => {
    const { partnerId, sandboxKey } = await service.createPartner('IN', 'Low Balance Partner');
    const configured = await service.request('PATCH', `/v1/admin/partners/${partnerId}/settings`, {
      token: TEST_ADMIN_TOKEN,
      body: { environment: 'sandbox', webhook_url: receiver.url },
    });
    expect(configured.status).toBe(200);
    expect((await settings(sandboxKey, { low_balance_threshold: '550' })).status).toBe(200);
    const start = await service.partner('GET', '/balance', sandboxKey);
    expect(start.body.available).toBe('1000.00');

    // Ten debits of 100.00 at once: the balance passes 550.00 once (between 600.00 and 500.00).
    const answers = await Promise.all(Array.from({ length: 10 }, () => topup(sandboxKey)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    await service.settle();
    const first = await notices(sandboxKey);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({
      event: 'wallet.low_balance',
      currency: 'INR',
      available_balance: '500.00',
      low_balance_threshold: '550.00',
      amount_local: '100.0000',
    });
    expect(webhooksOf('wallet.low_balance').map((webhook) => webhook.rawBody)).toEqual([JSON.stringify(first[0])]);

    // Still below: no new notice. Back to 600.00 (at or above 550.00), then a debit crosses again.
    await service.settle();
    expect(await notices(sandboxKey)).toHaveLength(1);
    const credited = await service.admin('POST', `/partners/${partnerId}/wallet-credits`, {
      environment: 'sandbox',
      amount: '600.00',
      reference: 'top up the float',
    });
    expect(credited.status).toBe(200);
    expect((await topup(sandboxKey)).status).toBe(200);
    await service.settle();
    const second = await notices(sandboxKey);
    expect(second).toHaveLength(2);
    expect(second[1]).toMatchObject({ available_balance: '500.00', low_balance_threshold: '550.00' });
    expect(webhooksOf('wallet.low_balance')).toHaveLength(2);
  });

  it('says nothing when no threshold is set', async () => {
    const { sandboxKey } = await service.createPartner('IN', 'No Threshold Partner');
    await Promise.all(Array.from({ length: 6 }, () => topup(sandboxKey)));
    await service.settle();
    expect(await notices(sandboxKey)).toHaveLength(0);
  });
});
