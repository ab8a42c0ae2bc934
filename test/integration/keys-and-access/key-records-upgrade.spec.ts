import { Client } from 'pg';
import { ServicesOnOneDatabase } from '../../support/services-on-one-database';
import { SANDBOX_PHONES } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';
import { waitForAsync } from '../../support/wait-for';

/**
 * A database of the release before key records: rm_api_keys without a key's kind and terms, the
 * terms only in rm_key_scopes. The new release judges every key by its own row from its first
 * request (migration 6 fills the rows from rm_key_scopes), and rebuilds the read model from the
 * log at start, after which the rows carry who created each key.
 */
describe('API key records on a database of the previous release', () => {
  let services: ServicesOnOneDatabase;
  let db: Client;

  beforeAll(async () => {
    services = await ServicesOnOneDatabase.create('key_records_upgrade');
    db = new Client({ connectionString: services.database.connectionString });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await services.close();
  });

  it(
    'keeps a restricted key restricted through the upgrade and the rebuild that follows it',
    async () => {
      const before = await services.start();
      const { partnerId, sandboxKey } = await before.createPartner('IN');
      const reader = await before.partner('POST', '/keys', sandboxKey, { label: 'reports', scope: 'read_only' });
      expect(reader.status).toBe(201);
      await services.stop(before);

      // The previous release's schema: its rm_api_keys, no key-records migration, partners at version 1.
      await db.query(`ALTER TABLE rm_api_keys DROP CONSTRAINT rm_api_keys_terms,
      DROP COLUMN kind, DROP COLUMN label, DROP COLUMN scope, DROP COLUMN per_order_max, DROP COLUMN daily_max,
      DROP COLUMN currency, DROP COLUMN expires_at, DROP COLUMN rate_limit, DROP COLUMN created_by_type,
      DROP COLUMN created_by_id, DROP COLUMN revoke_reason`);
      await db.query('DROP INDEX IF EXISTS rm_api_keys_partner');
      await db.query('DROP TABLE api_key_last_use');
      await db.query(`DELETE FROM schema_migrations WHERE name = 'key-records'`);
      await db.query(`UPDATE projection_versions SET schema_version = 1 WHERE name = 'partners'`);
      // Let the rebuild wait until the first requests were answered from the migrated rows.
      const holder = new Client({ connectionString: services.database.connectionString });
      await holder.connect();
      await holder.query('BEGIN');
      await holder.query(`SELECT * FROM projection_versions WHERE name = 'partners' FOR UPDATE`);

      try {
        const after = await services.start();
        const { rows } = await db.query<{ schema_version: number }>(
          `SELECT schema_version FROM projection_versions WHERE name = 'partners'`,
        );
        expect(rows[0].schema_version).toBe(1);
        const topup = { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 10 };
        expect((await after.topup(reader.body.api_key, topup, 'upgrade-reader-0001')).status).toBe(403);
        expect(
          (await after.partner('POST', '/keys', reader.body.api_key, { label: 'x', scope: 'transact' })).status,
        ).toBe(403);
        expect((await after.topup(sandboxKey, topup, 'upgrade-main-0001')).status).toBe(200);
        await holder.query('ROLLBACK');

        await waitForAsync(
          async () =>
            (
              await db.query<{ schema_version: number }>(
                `SELECT schema_version FROM projection_versions WHERE name = 'partners'`,
              )
            ).rows[0].schema_version === 2,
          { what: 'the partners read model to be rebuilt at version 2', timeoutMs: 60_000 },
        );
        expect((await after.topup(reader.body.api_key, topup, 'upgrade-reader-0002')).status).toBe(403);
        const listed = await after.admin('GET', `/partners/${partnerId}/keys?environment=sandbox`);
        expect(listed.body.keys).toEqual([
          expect.objectContaining({
            key_id: reader.body.key_id,
            scope: 'read_only',
            created_by: { type: 'partner_key', id: expect.any(String) },
          }),
        ]);
      } finally {
        await holder.end();
      }
    },
    SERVICE_START_TIMEOUT_MS * 3,
  );
});
