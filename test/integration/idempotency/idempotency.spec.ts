import { IDEMPOTENCY_STORE, IdempotencyStore } from '../../../src/application/ports/idempotency-store.port';
import { debitsForKey, debitCount, sqlOf } from '../../support/ledger';
import { SANDBOX_PHONES, STORES, TestService } from '../../support/test-service';

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

  const keyRow = async (idempotencyKey: string) =>
    (
      await sqlOf(service).query<{ response_status: number; response_body: string | null }>(
        'SELECT response_status, response_body FROM idempotency_keys WHERE partner_id = $1 AND idempotency_key = $2',
        [partnerId, idempotencyKey],
      )
    )[0];

  it('the key keeps no second copy of the answer: a retry is answered from the order debit, byte for byte', async () => {
    const first = await service.topup(key, body(), 'from-debit-0001');
    expect(await keyRow('from-debit-0001')).toEqual({ response_status: 200, response_body: null });

    const retry = await service.topup(key, body(), 'from-debit-0001');
    expect(retry.headers.get('idempotent-replay')).toBe('true');
    expect(retry.text).toBe(first.text);
    expect(await debitsForKey(service, partnerId, 'from-debit-0001')).toBe(1);
  });

  it('a key answered by an earlier release, with its answer stored, is still replayed with that stored answer', async () => {
    const first = await service.topup(key, body(), 'stored-answer-0001');
    // The layout before decision 0162 kept the answer on the key's row; any stored answer is served as it is.
    const stored = JSON.stringify(JSON.parse(first.text), null, 1);
    await sqlOf(service).query(
      'UPDATE idempotency_keys SET response_body = $3 WHERE partner_id = $1 AND idempotency_key = $2',
      [partnerId, 'stored-answer-0001', stored],
    );

    const retry = await service.topup(key, body(), 'stored-answer-0001');
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replay')).toBe('true');
    expect(retry.text).toBe(stored);
    expect(await debitsForKey(service, partnerId, 'stored-answer-0001')).toBe(1);
    expect(await balance()).toBe('900.00');
  });

  it('a retry whose JSON has its fields in another order or other whitespace counts as the same request', async () => {
    const first = await rawTopup(
      `{"operator_id":101,"phone":"${SANDBOX_PHONES.IN('0001')}","amount":100,"reference":"inv-42"}`,
      'reordered-0001',
    );
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

  it('20 identical requests sent at once with one key debit the wallet once, and all 20 get the same answer, 19 of them as replays', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => service.topup(key, body(), 'parallel-0001')));

    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 20 }, () => 200));
    expect(new Set(answers.map((answer) => answer.text)).size).toBe(1);
    expect(answers.filter((answer) => answer.headers.get('idempotent-replay') === null)).toHaveLength(1);

    expect(await debitsForKey(service, partnerId, 'parallel-0001')).toBe(1);
    expect(await balance()).toBe('900.00');
  });

  it('a repeat sent once the wallet is too low for the amount still gets its first answer, not 402', async () => {
    const first = await service.topup(key, body(700), 'repeat-when-low-01');
    expect(first.body.balance_after).toBe('300.00');

    const repeat = await service.topup(key, body(700), 'repeat-when-low-01');
    expect(repeat.status).toBe(200);
    expect(repeat.headers.get('idempotent-replay')).toBe('true');
    expect(repeat.text).toBe(first.text);
    expect(await debitsForKey(service, partnerId, 'repeat-when-low-01')).toBe(1);
    expect(await balance()).toBe('300.00');
  });

  it('repeats mixed into a burst of new topups on the same wallet get their first answers, and every new topup is debited once', async () => {
    const earlier = await Promise.all(
      ['burst-repeat-01', 'burst-repeat-02', 'burst-repeat-03'].map((reused) => service.topup(key, body(10), reused)),
    );
    const burst = Array.from({ length: 30 }, (_, index) =>
      index % 10 === 0 ? `burst-repeat-0${index / 10 + 1}` : `burst-new-${String(index).padStart(4, '0')}`,
    );
    const answers = await Promise.all(burst.map((idempotencyKey) => service.topup(key, body(10), idempotencyKey)));

    expect(answers.map((answer) => answer.status)).toEqual(burst.map(() => 200));
    burst.forEach((idempotencyKey, index) => {
      if (idempotencyKey.startsWith('burst-repeat-')) {
        expect(answers[index].headers.get('idempotent-replay')).toBe('true');
        expect(answers[index].text).toBe(earlier[Number(idempotencyKey.slice(-1)) - 1].text);
      } else {
        expect(answers[index].headers.get('idempotent-replay')).toBeNull();
      }
    });
    for (const idempotencyKey of burst) expect(await debitsForKey(service, partnerId, idempotencyKey)).toBe(1);
    expect(await debitCount(service, partnerId)).toBe(30);
    expect(await balance()).toBe('700.00');
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
    const sandbox = await keys.reserve(
      { partnerId, environment: 'sandbox', key: 'env-scope-0001' },
      'hash-a',
      'ord_sandbox_candidate',
      now,
    );
    const live = await keys.reserve(
      { partnerId, environment: 'live', key: 'env-scope-0001' },
      'hash-b',
      'ord_live_candidate',
      now,
    );

    expect(sandbox).toEqual({ outcome: 'reserved', orderId: 'ord_sandbox_candidate', lease: expect.any(String) });
    expect(live).toEqual({ outcome: 'reserved', orderId: 'ord_live_candidate', lease: expect.any(String) });
    if (sandbox.outcome !== 'reserved' || live.outcome !== 'reserved') return;
    await keys.release(
      { partnerId, environment: 'sandbox', key: 'env-scope-0001' },
      'ord_sandbox_candidate',
      sandbox.lease,
    );
    await keys.release({ partnerId, environment: 'live', key: 'env-scope-0001' }, 'ord_live_candidate', live.lease);
    expect(await keys.lookup({ partnerId, environment: 'sandbox', key: 'env-scope-0001' })).toBeNull();
    expect(await keys.lookup({ partnerId, environment: 'live', key: 'env-scope-0001' })).toBeNull();
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
      (
        await sqlOf(service).query<{ idempotency_key: string }>(
          'SELECT idempotency_key FROM idempotency_keys WHERE partner_id = $1 ORDER BY idempotency_key',
          [partnerId],
        )
      ).map((row) => row.idempotency_key);
    expect(await keysOfPartner()).toEqual(['kept-key-0001', 'purged-key-01']);

    const purged = await service.app.get<IdempotencyStore>(IDEMPOTENCY_STORE).purgeExpired(service.clock.now());
    expect(purged).toBeGreaterThanOrEqual(1);
    expect(await keysOfPartner()).toEqual(['kept-key-0001']);
    const expired = await sqlOf(service).query<{ n: number }>(
      'SELECT count(*)::int AS n FROM idempotency_keys WHERE expires_at <= $1',
      [service.clock.now().toISOString()],
    );
    expect(expired[0].n).toBe(0);
  });

  it('still leaves the money invariants intact after the keys expired', async () => {
    await service.settle();
    expect((await service.verify()).body).toMatchObject({ ok: true, breaches: [] });
  });
});
