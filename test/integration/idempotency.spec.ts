import { IDEMPOTENCY_STORE, IdempotencyStore } from '../../src/application/ports/idempotency-store.port';
import { debitsForKey, debitCount, sqlOf } from '../support/ledger';
import { SANDBOX_PHONES, STORES, TestService } from '../support/test-service';

const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(STORES)('Idempotency-Key on POST /topup (%s store)', (store) => {
  let service: TestService;
  let partnerId: string;
  let key: string;

  beforeAll(async () => {
    service = await TestService.start({ store });
  });
  afterAll(async () => {
    await service.close();
  });
  beforeEach(async () => {
    ({ partnerId, sandboxKey: key } = await service.createPartner('IN'));
  });

  const body = (amount = 100) => ({ operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount, reference: 'inv-42' });
  const balance = async (token = key) => (await service.partner('GET', '/balance', token)).body.available;
  const rawTopup = (rawBody: string, idempotencyKey: string) =>
    service.request('POST', '/v1/partner/topup', {
      token: key,
      rawBody,
      headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
    });

  it('a retry with the same key and body gets the first answer byte for byte, marked as a replay, and is debited once', async () => {
    const first = await service.topup(key, body(), 'retry-same-0001');
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replay')).toBeNull();

    const retry = await service.topup(key, body(), 'retry-same-0001');
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replay')).toBe('true');
    expect(retry.text).toBe(first.text);

    expect(await debitsForKey(service, partnerId, 'retry-same-0001')).toBe(1);
    expect(await balance()).toBe('900.00');
  });

  it('a retry whose JSON has its fields in another order or other whitespace counts as the same request', async () => {
    const first = await rawTopup(`{"operator_id":101,"phone":"${SANDBOX_PHONES.IN('0001')}","amount":100,"reference":"inv-42"}`, 'reordered-0001');
    expect(first.status).toBe(200);

    const reordered = await rawTopup(
      `{\n  "reference" : "inv-42",\n  "amount": 100,\n\t"phone":   "${SANDBOX_PHONES.IN('0001')}",  "operator_id" :101\n}\n`,
      'reordered-0001',
    );
    expect(reordered.status).toBe(200);
    expect(reordered.headers.get('idempotent-replay')).toBe('true');
    expect(reordered.text).toBe(first.text);
    expect(await debitsForKey(service, partnerId, 'reordered-0001')).toBe(1);
    expect(await balance()).toBe('900.00');
  });

  it('the same key with a different body is refused with 409 idempotency_conflict and moves no money', async () => {
    const first = await service.topup(key, body(100), 'conflict-0001');
    expect(first.status).toBe(200);

    const other = await service.topup(key, body(250), 'conflict-0001');
    expect(other.status).toBe(409);
    expect(other.body.error).toBe('idempotency_conflict');
    expect(await debitsForKey(service, partnerId, 'conflict-0001')).toBe(1);
    expect(await balance()).toBe('900.00');
  });

  it('a topup without an Idempotency-Key is refused with 400 idempotency_key_required and moves no money', async () => {
    const answer = await service.partner('POST', '/topup', key, body());
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('idempotency_key_required');
    expect(await debitCount(service, partnerId)).toBe(0);
    expect(await balance()).toBe('1000.00');
  });

  it('an Idempotency-Key shorter than 8 characters is refused with 400 validation_failed and moves no money', async () => {
    const answer = await service.topup(key, body(), 'short77');
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('validation_failed');
    expect(await debitCount(service, partnerId)).toBe(0);
    expect(await balance()).toBe('1000.00');
  });

  it('20 identical requests sent at once with one key debit the wallet once and all accepted answers name the same order', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => service.topup(key, body(), 'parallel-0001')));

    const accepted = answers.filter((answer) => answer.status === 200);
    const others = answers.filter((answer) => answer.status !== 200);
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    // Only "still in flight" may be answered otherwise, and only as 409 idempotency_conflict.
    for (const answer of others) expect({ status: answer.status, error: answer.body?.error }).toEqual({ status: 409, error: 'idempotency_conflict' });
    expect(new Set(accepted.map((answer) => answer.body.order_id)).size).toBe(1);
    expect(new Set(accepted.map((answer) => answer.text)).size).toBe(1);
    expect(accepted.filter((answer) => answer.headers.get('idempotent-replay') === null)).toHaveLength(1);

    expect(await debitsForKey(service, partnerId, 'parallel-0001')).toBe(1);
    expect(await balance()).toBe('900.00');
  });

  it('two partners using the same key get two separate orders, each debited once', async () => {
    const other = await service.createPartner('IN', 'Other Partner');
    const mine = await service.topup(key, body(), 'shared-key-0001');
    const theirs = await service.topup(other.sandboxKey, body(), 'shared-key-0001');

    expect(mine.status).toBe(200);
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get('idempotent-replay')).toBeNull();
    expect(theirs.body.order_id).not.toBe(mine.body.order_id);
    expect(await balance()).toBe('900.00');
    expect(await balance(other.sandboxKey)).toBe('900.00');
    expect(await debitsForKey(service, partnerId, 'shared-key-0001')).toBe(1);
    expect(await debitsForKey(service, other.partnerId, 'shared-key-0001')).toBe(1);
  });

  it('a key used in the sandbox is a different key in live: each environment reserves it for its own request', async () => {
    // Live topups need a live provider, which this build does not configure, so the scope is checked at the key store.
    const keys = service.app.get<IdempotencyStore>(IDEMPOTENCY_STORE);
    const now = service.clock.now();
    const sandbox = await keys.reserve({ partnerId, environment: 'sandbox', key: 'env-scope-0001' }, 'hash-a', 'ord_sandbox_candidate', now);
    const live = await keys.reserve({ partnerId, environment: 'live', key: 'env-scope-0001' }, 'hash-b', 'ord_live_candidate', now);

    expect(sandbox).toEqual({ outcome: 'reserved', orderId: 'ord_sandbox_candidate' });
    expect(live).toEqual({ outcome: 'reserved', orderId: 'ord_live_candidate' });
    await keys.release({ partnerId, environment: 'sandbox', key: 'env-scope-0001' }, 'ord_sandbox_candidate');
    await keys.release({ partnerId, environment: 'live', key: 'env-scope-0001' }, 'ord_live_candidate');
  });

  it('a request refused for insufficient balance (402) moves no money and its key can then be used for a valid request', async () => {
    const refused = await service.topup(key, body(1500), 'refused-402-01');
    expect(refused.status).toBe(402);
    expect(refused.body.error).toBe('insufficient_balance');
    expect(await debitCount(service, partnerId)).toBe(0);
    expect(await balance()).toBe('1000.00');

    const valid = await service.topup(key, body(100), 'refused-402-01');
    expect(valid.status).toBe(200);
    expect(valid.headers.get('idempotent-replay')).toBeNull();
    expect(valid.body.balance_after).toBe('900.00');
    expect(await debitsForKey(service, partnerId, 'refused-402-01')).toBe(1);
  });

  it('a request refused for an amount out of range (422) moves no money and its key can then be used for a valid request', async () => {
    const refused = await service.topup(key, body(5), 'refused-422-01');
    expect(refused.status).toBe(422);
    expect(refused.body.error).toBe('amount_out_of_range');
    expect(await debitCount(service, partnerId)).toBe(0);
    expect(await balance()).toBe('1000.00');

    const valid = await service.topup(key, body(100), 'refused-422-01');
    expect(valid.status).toBe(200);
    expect(valid.body.balance_after).toBe('900.00');
    expect(await debitsForKey(service, partnerId, 'refused-422-01')).toBe(1);
  });

  it('leaves the money invariants intact', async () => {
    await service.settle();
    expect((await service.verify()).body).toMatchObject({ ok: true, breaches: [] });
  });

  // The tests below move the clock by more than a day, so they run last.

  it('after 24 hours the same key places a new order and is debited again', async () => {
    const first = await service.topup(key, body(), 'day-old-key-01');
    expect(first.status).toBe(200);
    await service.settle();

    await service.advance(23 * 60 * 60 * 1000);
    const withinWindow = await service.topup(key, body(), 'day-old-key-01');
    expect(withinWindow.headers.get('idempotent-replay')).toBe('true');
    expect(withinWindow.body.order_id).toBe(first.body.order_id);

    await service.advance(DAY_MS - 23 * 60 * 60 * 1000 + 1000);
    const later = await service.topup(key, body(), 'day-old-key-01');
    expect(later.status).toBe(200);
    expect(later.headers.get('idempotent-replay')).toBeNull();
    expect(later.body.order_id).not.toBe(first.body.order_id);
    expect(later.body.balance_after).toBe('800.00');
    expect(await debitsForKey(service, partnerId, 'day-old-key-01')).toBe(2);
  });

  it('keys older than 24 hours are purged, younger keys are kept', async () => {
    expect((await service.topup(key, body(), 'purged-key-01')).status).toBe(200);
    await service.advance(DAY_MS + 1000);
    expect((await service.topup(key, body(), 'kept-key-0001')).status).toBe(200);

    const keysOfPartner = async () =>
      (await sqlOf(service).query<{ idempotency_key: string }>('SELECT idempotency_key FROM idempotency_keys WHERE partner_id = $1 ORDER BY idempotency_key', [partnerId])).map(
        (row) => row.idempotency_key,
      );
    expect(await keysOfPartner()).toEqual(['kept-key-0001', 'purged-key-01']);

    const purged = await service.app.get<IdempotencyStore>(IDEMPOTENCY_STORE).purgeExpired(service.clock.now());
    expect(purged).toBeGreaterThanOrEqual(1);
    expect(await keysOfPartner()).toEqual(['kept-key-0001']);
    const expired = await sqlOf(service).query<{ n: number }>('SELECT count(*)::int AS n FROM idempotency_keys WHERE expires_at <= $1', [service.clock.now().toISOString()]);
    expect(Number(expired[0].n)).toBe(0);
  });

  it('still leaves the money invariants intact after the keys expired', async () => {
    await service.settle();
    expect((await service.verify()).body).toMatchObject({ ok: true, breaches: [] });
  });
});
