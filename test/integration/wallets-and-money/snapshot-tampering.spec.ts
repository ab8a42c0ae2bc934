import { Client } from 'pg';
import { Money } from '../../../src/domain/money/money';
import { forgeEvent, lastRecordedBalance, sandboxWallet, sqlOf } from '../../support/ledger';
import { ServicesOnOneDatabase } from '../../support/services-on-one-database';
import { SANDBOX_PHONES, TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';
import { waitForAsync } from '../../support/wait-for';

/** Snapshots every 2 wallet events, so the key's spend is in one before the restart. */
const ENV = { WALLET_SNAPSHOT_EVERY: '2' };

const topupOf = (amount: number) => ({ operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount });

/**
 * With write access to the database, an attacker empties the restricted keys' spends in a wallet's
 * snapshot and waits for a restart, hoping a key at its daily cap can spend it again. The cap is
 * decided as the log says, the key's listed spend is the log's, and `verify` recomputes each key's
 * spend from the log (and reports an order over a cap, should one ever be in it).
 */
describe('a wallet snapshot written to by an attacker', () => {
  let services: ServicesOnOneDatabase;

  beforeEach(async () => {
    services = await ServicesOnOneDatabase.create('snapshot_tampering_api');
  });
  afterEach(async () => {
    await services.close();
  });

  const snapshotRevision = async (service: TestService, partnerId: string): Promise<number> => {
    const [row] = await sqlOf(service).query<{ revision: string }>(
      'SELECT revision::text AS revision FROM wallet_snapshots WHERE stream_id = $1',
      [sandboxWallet(partnerId)],
    );
    return row ? Number(row.revision) : -1;
  };

  it(
    'cannot reset a key’s 24-hour spend: after the restart the key at its cap is still refused',
    async () => {
      const before = await services.start({ env: ENV });
      const { partnerId, sandboxKey } = await before.createPartner('IN');
      const created = await before.partner('POST', '/keys', sandboxKey, {
        label: 'capped',
        scope: 'transact',
        daily_max: '100.00',
      });
      const key = created.body.api_key as string;
      expect((await before.topup(key, topupOf(100), 'capped-0001')).status).toBe(200);
      expect((await before.topup(key, topupOf(10), 'capped-0002')).status).toBe(403);
      // The grant and the debit: the snapshot at revision 1 holds the key's 100.00.
      await waitForAsync(async () => (await snapshotRevision(before, partnerId)) >= 1, { what: 'the snapshot' });
      await services.stop(before);

      // While the service is down, straight into its database.
      const db = new Client({ connectionString: services.database.connectionString });
      await db.connect();
      try {
        const { rows } = await db.query<{ spends: number }>(
          `UPDATE wallet_snapshots SET state = jsonb_set(state, '{keySpends}', '[]')
            WHERE stream_id = $1 RETURNING jsonb_array_length(state -> 'keySpends') AS spends`,
          [sandboxWallet(partnerId)],
        );
        expect(rows).toEqual([{ spends: 0 }]);
      } finally {
        await db.end();
      }

      const after = await services.start({ env: ENV });

      const again = await after.topup(key, topupOf(100), 'capped-0003');
      expect({ status: again.status, error: again.body.error }).toEqual({ status: 403, error: 'key_cap_exceeded' });
      expect((await after.partner('GET', '/balance', sandboxKey)).body.available).toBe('900.00');
      const listed = await after.partner('GET', '/keys', sandboxKey);
      expect(listed.body.keys[0]).toMatchObject({ key_id: created.body.key_id, spent_last_24h: '100.00' });

      const verified = await after.verify();
      expect(verified.status).toBe(200);
      expect(verified.body.ok).toBe(true);
      expect(verified.body.key_spends).toEqual([
        {
          partner_id: partnerId,
          environment: 'sandbox',
          key_id: created.body.key_id,
          spent_last_24h: '100.00',
          daily_max: '100.00',
          currency: 'INR',
        },
      ]);
    },
    SERVICE_START_TIMEOUT_MS * 2,
  );

  it(
    'verify recomputes each key’s spend from the log: an order over a daily cap in the log is a breach',
    async () => {
      const service = await services.start({ env: ENV });
      const { partnerId, sandboxKey } = await service.createPartner('IN');
      const created = await service.partner('POST', '/keys', sandboxKey, {
        label: 'capped',
        scope: 'transact',
        daily_max: '100.00',
      });
      expect((await service.topup(created.body.api_key, topupOf(100), 'log-capped-0001')).status).toBe(200);
      const stream = sandboxWallet(partnerId);
      const amount = Money.parse('50.00', 'INR')!;
      const orderId = 'ord_forged_over_cap';
      await forgeEvent(
        service,
        stream,
        'WalletDebited',
        {
          orderId,
          amount: amount.toDecimal(),
          currency: 'INR',
          balanceAfter: (await lastRecordedBalance(service, stream, 'INR')).minus(amount).toDecimal(),
          reference: null,
          idempotencyKey: 'forged-over-cap',
          product: { kind: 'topup', operatorId: 101, phone: SANDBOX_PHONES.IN('0001') },
          placedAt: service.clock.now().toISOString(),
          scopedKeyId: created.body.key_id,
        },
        {
          partnerId,
          environment: 'sandbox',
          correlationId: orderId,
          causationId: null,
          actor: { type: 'system', id: 'forger' },
          occurredAt: service.clock.now().toISOString(),
        },
      );
      const verified = await service.verify();
      const breaches = (verified.body.breaches as { invariant: number; detail: string }[]).filter((breach) =>
        breach.detail.includes(created.body.key_id),
      );
      expect(breaches).toContainEqual({
        invariant: 7,
        name: 'restricted keys stay within their caps',
        detail: expect.stringContaining(`had spent 100.00 in the 24 hours before order ${orderId}`),
      });
      expect(verified.body.key_spends).toContainEqual(
        expect.objectContaining({ key_id: created.body.key_id, spent_last_24h: '150.00' }),
      );
    },
    SERVICE_START_TIMEOUT_MS,
  );
});
