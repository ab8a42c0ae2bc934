import { sandboxWallet, sqlOf } from '../../support/ledger';
import { ServicesOnOneDatabase } from '../../support/services-on-one-database';
import { SANDBOX_PHONES, TEST_ADMIN_TOKEN, TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';
import { waitForAsync } from '../../support/wait-for';

/**
 * A wallet whose history spans several snapshots (one every 4 events here), served by a service started
 * after it was written: the balance, the overdraft refusal and a restricted key's daily cap come out
 * exactly as the history says, whether the snapshot is used or, not fitting, ignored.
 */
const ENV = { WALLET_SNAPSHOT_EVERY: '4' };

interface Wallet {
  partnerId: string;
  mainKey: string;
  /** A transact key with a daily maximum of 300.00. */
  cappedKey: string;
}

const topupOf = (amount: number, suffix = '0001') => ({
  operator_id: 101,
  phone: SANDBOX_PHONES.IN(suffix),
  amount,
});

describe('wallet snapshots, seen through the partner API', () => {
  let services: ServicesOnOneDatabase;
  const start = (): Promise<TestService> => services.start({ env: ENV });
  const stop = (service: TestService): Promise<void> => services.stop(service);

  beforeEach(async () => {
    services = await ServicesOnOneDatabase.create('wallet_snapshots_api');
  });
  afterEach(async () => {
    await services.close();
  });

  const snapshotRevision = async (service: TestService, partnerId: string): Promise<number | null> => {
    const [row] = await sqlOf(service).query<{ revision: string }>(
      'SELECT revision::text AS revision FROM wallet_snapshots WHERE stream_id = $1',
      [sandboxWallet(partnerId)],
    );
    return row ? Number(row.revision) : null;
  };

  /** Places a topup and returns the balance after it (expecting 200). */
  async function placed(service: TestService, key: string, amount: number, name: string, suffix = '0001') {
    const answer = await service.topup(key, topupOf(amount, suffix), `snapshots-${name}`);
    expect(answer.status === 200 ? 200 : answer.text).toBe(200);
    return answer.body.balance_after as string;
  }

  /**
   * Eighteen wallet events, one append each: snapshots at revisions 3, 7, 11 and 15, two events after the
   * last. Balance 1,110.00; the capped key has 200.00 of live spend (its 150.00 order failed and was refunded).
   */
  async function history(service: TestService): Promise<Wallet> {
    const { partnerId, sandboxKey: mainKey } = await service.createPartner('IN'); // 0: the 1,000.00 grant
    const credit = await service.request('POST', `/v1/admin/partners/${partnerId}/wallet-credits`, {
      token: TEST_ADMIN_TOKEN,
      body: { environment: 'sandbox', amount: '500.00', reference: 'wire' },
    });
    // 1: an operator credit
    expect({ status: credit.status, available: credit.body.available }).toEqual({ status: 200, available: '1500.00' });
    const created = await service.partner('POST', '/keys', mainKey, {
      label: 'agent',
      scope: 'transact',
      daily_max: '300.00',
    });
    const cappedKey = created.body.api_key as string;
    expect(await placed(service, mainKey, 100, 'h-2')).toBe('1400.00');
    expect(await placed(service, cappedKey, 100, 'h-3')).toBe('1300.00');
    expect(await placed(service, mainKey, 250, 'h-4', '0002')).toBe('1050.00');
    await service.settle(); // 5: its refund
    expect(await placed(service, cappedKey, 150, 'h-6', '0002')).toBe('1150.00');
    await service.settle(); // 7: its refund, back to 1,300.00
    for (let revision = 8; revision <= 15; revision += 1) await placed(service, mainKey, 10, `h-${revision}`);
    expect(await placed(service, cappedKey, 100, 'h-16')).toBe('1120.00');
    expect(await placed(service, mainKey, 10, 'h-17')).toBe('1110.00');
    await waitForAsync(async () => (await snapshotRevision(service, partnerId)) === 15, {
      what: 'the snapshot at revision 15',
    });
    return { partnerId, mainKey, cappedKey };
  }

  /** What the history allows next: 100.00 more on the capped key, then exactly the rest of the balance. */
  async function expectTheHistoryHolds(service: TestService, { mainKey, cappedKey }: Wallet): Promise<void> {
    const overCap = await service.topup(cappedKey, topupOf(101), 'snapshots-next-1');
    expect({ status: overCap.status, error: overCap.body.error }).toEqual({ status: 403, error: 'key_cap_exceeded' });
    expect(await placed(service, cappedKey, 100, 'snapshots-next-2')).toBe('1010.00');
    const overdraft = await service.topup(mainKey, topupOf(1010.01), 'snapshots-next-3');
    expect({ status: overdraft.status, error: overdraft.body.error }).toEqual({
      status: 402,
      error: 'insufficient_balance',
    });
    expect(await placed(service, mainKey, 1010, 'snapshots-next-4')).toBe('0.00');
    expect((await service.partner('GET', '/balance', mainKey)).body.available).toBe('0.00');
    await service.settle();
    expect((await service.verify()).body).toMatchObject({ ok: true, breaches: [] });
  }

  it(
    'a restarted service answers from the snapshot exactly as the whole history would',
    async () => {
      const first = await start();
      const wallet = await history(first);
      await stop(first);

      const restarted = await start();
      await expectTheHistoryHolds(restarted, wallet);
    },
    SERVICE_START_TIMEOUT_MS,
  );

  it(
    'a second service on the same database loads the wallet from the snapshot, and the first follows its writes',
    async () => {
      const first = await start();
      const wallet = await history(first);
      const second = await start();
      await expectTheHistoryHolds(second, wallet);
      const refused = await first.topup(wallet.mainKey, topupOf(10), 'snapshots-after-the-second');
      expect({ status: refused.status, error: refused.body.error }).toEqual({
        status: 402,
        error: 'insufficient_balance',
      });
    },
    SERVICE_START_TIMEOUT_MS,
  );

  it.each([
    ['of another fold version', `fold_version = 2`],
    ['whose state cannot be read', `state = jsonb_set(state, '{keySpends}', '"none"')`],
    ['at an event that is not the one it was taken at', `event_id = gen_random_uuid()`],
    ['past the end of the stream', `revision = 1000`],
  ])(
    'a snapshot %s, with a balance of 99,999.00, is ignored: the balance stays right',
    async (_case, change) => {
      const first = await start();
      const wallet = await history(first);
      await stop(first);
      const tampering = await services.start();
      await sqlOf(tampering).query(
        `UPDATE wallet_snapshots SET state = jsonb_set(state, '{balanceMinor}', '"9999900"') WHERE stream_id = $1`,
        [sandboxWallet(wallet.partnerId)],
      );
      await sqlOf(tampering).query(`UPDATE wallet_snapshots SET ${change} WHERE stream_id = $1`, [
        sandboxWallet(wallet.partnerId),
      ]);
      await stop(tampering);

      const restarted = await start();
      await expectTheHistoryHolds(restarted, wallet);
    },
    SERVICE_START_TIMEOUT_MS,
  );
});
