import { expectRefusal } from '../../support/error-assertions';
import { STORES, TEST_ADMIN_TOKEN, TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

describe.each(STORES)('operator credits with an Idempotency-Key (%s store)', (store) => {
  let service: TestService;
  let partnerId: string;
  let sandboxKey: string;

  beforeAll(async () => {
    service = await TestService.start({ store });
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await service.close();
  });
  beforeEach(async () => {
    ({ partnerId, sandboxKey } = await service.createPartner('IN'));
    await service.settle(); // the sandbox's starting 1,000.00
  });

  const credit = (body: Record<string, unknown>, key?: string) =>
    service.request('POST', `/v1/admin/partners/${partnerId}/wallet-credits`, {
      token: TEST_ADMIN_TOKEN,
      body,
      headers: key === undefined ? {} : { 'idempotency-key': key },
    });
  const balance = async () => (await service.partner('GET', '/balance', sandboxKey)).body.available;
  const wire = { environment: 'sandbox', amount: '250.00', reference: 'wire 2026-11-23' };

  it('a retry with the same key and body credits once and gets the first answer, marked as a replay', async () => {
    const first = await credit(wire, 'wire-2026-11-23-a');
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replay')).toBeNull();
    expect(first.body).toMatchObject({ amount: '250.00', available: '1250.00', reference: 'wire 2026-11-23' });

    const again = await credit(wire, 'wire-2026-11-23-a');
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replay')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await balance()).toBe('1250.00');
    await service.settle();
    expect((await service.verify()).body).toMatchObject({ ok: true, breaches: [] });
  });

  it('the same key with another amount or reference is refused with 409 and credits nothing more', async () => {
    expect((await credit(wire, 'wire-conflict-01')).status).toBe(200);
    expectRefusal(await credit({ ...wire, amount: '260.00' }, 'wire-conflict-01'), 409, 'idempotency_conflict');
    expectRefusal(
      await credit({ ...wire, reference: 'another wire' }, 'wire-conflict-01'),
      409,
      'idempotency_conflict',
    );
    expect(await balance()).toBe('1250.00');
  });

  it('identical tries sent at once credit once', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => credit(wire, 'wire-burst-0001')));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(answers.map((answer) => answer.body.credit_id)).size).toBe(1);
    expect(await balance()).toBe('1250.00');
    await service.settle();
    expect((await service.verify()).body).toMatchObject({ ok: true, breaches: [] });
  });

  it('without a key every request is a credit of its own, as before', async () => {
    expect((await credit(wire)).status).toBe(200);
    expect((await credit(wire)).status).toBe(200);
    expect(await balance()).toBe('1500.00');
  });

  it('a key is scoped to one partner: another partner with the same key gets a credit of its own', async () => {
    expect((await credit(wire, 'wire-shared-key-1')).status).toBe(200);
    const other = await service.createPartner('IN');
    await service.settle();
    const otherCredit = await service.request('POST', `/v1/admin/partners/${other.partnerId}/wallet-credits`, {
      token: TEST_ADMIN_TOKEN,
      body: wire,
      headers: { 'idempotency-key': 'wire-shared-key-1' },
    });
    expect(otherCredit.status).toBe(200);
    expect(otherCredit.headers.get('idempotent-replay')).toBeNull();
    expect((await service.partner('GET', '/balance', other.sandboxKey)).body.available).toBe('1250.00');
  });

  it('refuses a key that is not 8 to 255 visible ASCII characters, crediting nothing', async () => {
    for (const key of ['short', 'with space inside', 'k'.repeat(256)]) {
      expectRefusal(await credit(wire, key), 400, 'validation_failed', 'Idempotency-Key');
    }
    expect(await balance()).toBe('1000.00');
  });
});
