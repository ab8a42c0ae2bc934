import { debitCount, debitsForKey } from '../../support/ledger';
import { startTwoServices, stopTwoServices, TwoServices } from '../../support/two-services';
import { HttpAnswer, SANDBOX_PHONES, STORES, TestService } from '../../support/test-service';

const topupOf = (amount: number) => ({ operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount });

const statusCounts = (answers: HttpAnswer[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const answer of answers) {
    const label = answer.status === 200 ? '200' : `${answer.status} ${answer.body?.error}`;
    counts[label] = (counts[label] ?? 0) + 1;
  }
  return counts;
};

describe.each(STORES)('concurrent topups on one service (%s store)', (store) => {
  let service: TestService;

  beforeAll(async () => {
    service = await TestService.start({ store });
  });
  afterAll(async () => {
    await service.close();
  });

  const balance = async (token: string) => (await service.partner('GET', '/balance', token)).body.available;

  it('40 topups of 100.00 sent at once on a 1,000.00 wallet: exactly 10 are accepted, 30 get 402, the wallet ends at 0.00', async () => {
    const { partnerId, sandboxKey } = await service.createPartner('IN');

    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => service.topup(sandboxKey, topupOf(100), `hot-wallet-${i}`)),
    );

    expect(statusCounts(answers)).toEqual({ '200': 10, '402 insufficient_balance': 30 });
    // Each accepted topup saw its own step of the balance going down; none saw a negative one.
    const balancesAfter = answers.filter((answer) => answer.status === 200).map((answer) => answer.body.balance_after);
    expect(balancesAfter.sort()).toEqual([
      '0.00',
      '100.00',
      '200.00',
      '300.00',
      '400.00',
      '500.00',
      '600.00',
      '700.00',
      '800.00',
      '900.00',
    ]);
    expect(await balance(sandboxKey)).toBe('0.00');
    expect(await debitCount(service, partnerId)).toBe(10);

    await service.settle();
    expect((await service.verify()).body).toMatchObject({ ok: true, breaches: [] });
  });

  it('topups on many wallets at once each stop exactly where their own wallet runs out', async () => {
    const partners = await Promise.all(
      Array.from({ length: 6 }, (_, i) => service.createPartner('IN', `Partner ${i}`)),
    );

    // 11 topups of 100.00 per wallet, interleaved across wallets.
    const requests = Array.from({ length: 11 }, (_, round) =>
      partners.map((partner, p) => ({ partner, key: `many-${p}-${round}` })),
    ).flat();
    const answers = await Promise.all(
      requests.map(({ partner, key }) => service.topup(partner.sandboxKey, topupOf(100), key)),
    );

    for (const partner of partners) {
      const own = answers.filter((_, i) => requests[i].partner === partner);
      expect(statusCounts(own)).toEqual({ '200': 10, '402 insufficient_balance': 1 });
      expect(await balance(partner.sandboxKey)).toBe('0.00');
      expect(await debitCount(service, partner.partnerId)).toBe(10);
    }

    await service.settle();
    expect((await service.verify()).body).toMatchObject({ ok: true, breaches: [] });
  });
});

describe('two service processes sharing one PostgreSQL database', () => {
  let services: TwoServices | undefined;
  let first: TestService;
  let second: TestService;

  beforeAll(async () => {
    services = await startTwoServices('concurrency');
    ({ first, second } = services);
  });
  afterAll(() => stopTwoServices(services ?? {}));

  it('a partner onboarded through one process can use its key on the other', async () => {
    const { sandboxKey } = await first.createPartner('IN');
    const seen = await second.partner('GET', '/balance', sandboxKey);
    expect(seen.status).toBe(200);
    expect(seen.body.available).toBe('1000.00');
  });

  it('56 topups of 50.00 on one hot wallet, split across both processes, accept exactly 20 and never overdraw', async () => {
    const { partnerId, sandboxKey } = await first.createPartner('IN', 'Hot Partner');

    // 28 per process, interleaved; with the balance reads this stays inside the default 60 requests a minute per key.
    const answers = await Promise.all(
      Array.from({ length: 56 }, (_, i) =>
        (i % 2 === 0 ? first : second).topup(sandboxKey, topupOf(50), `two-process-${i}`),
      ),
    );

    expect(statusCounts(answers)).toEqual({ '200': 20, '402 insufficient_balance': 36 });
    const balancesAfter = answers
      .filter((answer) => answer.status === 200)
      .map((answer) => Number(answer.body.balance_after));
    expect(Math.min(...balancesAfter)).toBe(0);
    expect(new Set(balancesAfter).size).toBe(20);
    expect(await debitCount(first, partnerId)).toBe(20);
    expect((await first.partner('GET', '/balance', sandboxKey)).body.available).toBe('0.00');
    expect((await second.partner('GET', '/balance', sandboxKey)).body.available).toBe('0.00');
  });

  it('identical requests with one key, split across both processes, are debited once and all name the same order', async () => {
    const { partnerId, sandboxKey } = await first.createPartner('IN', 'Retrying Partner');

    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        (i % 2 === 0 ? first : second).topup(sandboxKey, topupOf(100), 'split-key-0001'),
      ),
    );

    const accepted = answers.filter((answer) => answer.status === 200);
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    for (const answer of answers.filter((a) => a.status !== 200)) {
      expect({ status: answer.status, error: answer.body?.error }).toEqual({
        status: 409,
        error: 'idempotency_conflict',
      });
    }
    expect(new Set(accepted.map((answer) => answer.body.order_id)).size).toBe(1);
    expect(await debitsForKey(first, partnerId, 'split-key-0001')).toBe(1);
    expect((await second.partner('GET', '/balance', sandboxKey)).body.available).toBe('900.00');
  });

  it('leaves the money invariants intact, as seen from either process', async () => {
    await Promise.all([first.settle(), second.settle()]);
    await first.settle();
    expect((await first.verify()).body).toMatchObject({ ok: true, breaches: [] });
    expect((await second.verify()).body).toMatchObject({ ok: true, breaches: [] });
  });
});
