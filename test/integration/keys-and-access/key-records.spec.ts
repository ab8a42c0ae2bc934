import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { CliRun, runCli } from '../../support/run-cli';
import { HttpAnswer, SANDBOX_PHONES, TEST_ADMIN_TOKEN, TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';
import { waitForAsync } from '../../support/wait-for';

/** The rule of rm_api_keys (partners read model, version 2) that a key's record is whole. */
const KEY_TERMS = `(kind = 'main' AND label IS NULL AND scope IS NULL AND per_order_max IS NULL AND daily_max IS NULL
    AND currency IS NULL AND expires_at IS NULL AND rate_limit IS NULL)
  OR (kind = 'restricted' AND label IS NOT NULL AND currency IS NOT NULL
    AND (scope = 'transact' OR (scope = 'read_only' AND per_order_max IS NULL AND daily_max IS NULL))
    AND (rate_limit IS NULL OR rate_limit > 0))`;

const topup = (amount = 10) => ({ operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount });

const expectError = (answer: HttpAnswer, status: number, code: string): void => {
  expect({ status: answer.status, body: answer.body }).toEqual({
    status,
    body: { error: code, detail: expect.any(String) },
  });
};

/** Exactly one JSON line on stdout and exit 0. */
function printedJson(run: CliRun): Record<string, any> {
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
  return JSON.parse(run.stdout) as Record<string, any>;
}

/**
 * API keys as an attacker would try them: with a stolen main key (and the CLI's standard answer
 * to it, a regeneration), and with write access to the read models.
 */
describe('API key records', () => {
  let service: TestService;
  let db: Client;
  let scratch: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres' });
    if (!service.databaseUrl) throw new Error('no database');
    db = new Client({ connectionString: service.databaseUrl });
    await db.connect();
    scratch = mkdtempSync(join(tmpdir(), 'key-records-'));
    env = { SERVICE_URL: service.url, ADMIN_TOKEN: TEST_ADMIN_TOKEN, DATA_DIR: join(scratch, 'no-data-here') };
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await db.end();
    await service.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  const balance = async (key: string): Promise<string> =>
    (await service.partner('GET', '/balance', key)).body.available;
  const createKey = (mainKey: string, body: Record<string, unknown>) => service.partner('POST', '/keys', mainKey, body);

  describe('regenerating a leaked main key', () => {
    it('revokes every restricted key of that environment, says which, and records why', async () => {
      const { partnerId, sandboxKey } = await service.createPartner('IN');
      // The thief, holding the main key for a minute, leaves an uncapped transact key behind.
      const backdoor = await createKey(sandboxKey, { label: 'backdoor', scope: 'transact' });
      expect(backdoor.status).toBe(201);
      const reader = await createKey(sandboxKey, { label: 'reports', scope: 'read_only' });
      expect(reader.status).toBe(201);

      const regenerated = printedJson(await runCli(['key', 'regenerate', partnerId, '--environment', 'sandbox'], env));
      expect(regenerated).toEqual({
        partner_id: partnerId,
        environment: 'sandbox',
        api_key: expect.stringMatching(/^svc_test_/),
        revoked_restricted_keys: [
          { key_id: backdoor.body.key_id, label: 'backdoor' },
          { key_id: reader.body.key_id, label: 'reports' },
        ],
        kept_restricted_keys: [],
      });

      expectError(await service.partner('GET', '/balance', sandboxKey), 401, 'invalid_api_key');
      const spent = await service.topup(backdoor.body.api_key, topup(), 'backdoor-after-regeneration');
      expectError(spent, 401, 'invalid_api_key');
      expectError(await service.partner('GET', '/balance', reader.body.api_key), 401, 'invalid_api_key');
      expect(await balance(regenerated.api_key)).toBe('1000.00');

      const listed = await service.partner('GET', '/keys', regenerated.api_key);
      // Both made at the same (manual) time: listed in key id order.
      const byId = (a: { key_id: string }, b: { key_id: string }) => (a.key_id < b.key_id ? -1 : 1);
      expect(listed.body.keys).toEqual(
        [backdoor.body, reader.body]
          .sort(byId)
          .map((key: { key_id: string }) =>
            expect.objectContaining({ key_id: key.key_id, status: 'revoked', revoke_reason: 'main_key_regenerated' }),
          ),
      );
    });

    it('keeps them only with --keep-restricted-keys, and lists the ones kept', async () => {
      const { partnerId, sandboxKey } = await service.createPartner('IN');
      const agent = await createKey(sandboxKey, { label: 'agent', scope: 'transact', daily_max: '50.00' });
      const regenerated = printedJson(
        await runCli(['key', 'regenerate', partnerId, '--environment', 'sandbox', '--keep-restricted-keys'], env),
      );
      expect(regenerated).toMatchObject({
        revoked_restricted_keys: [],
        kept_restricted_keys: [{ key_id: agent.body.key_id, label: 'agent' }],
      });
      expectError(await service.partner('GET', '/balance', sandboxKey), 401, 'invalid_api_key');
      expect((await service.topup(agent.body.api_key, topup(), 'kept-agent-0001')).status).toBe(200);
    });

    it('the admin route takes keep_restricted_keys as a JSON boolean only, and touches only its own environment', async () => {
      const { partnerId, sandboxKey } = await service.createPartner('IN');
      expect((await service.admin('POST', `/partners/${partnerId}/kyc`, { status: 'approved' })).status).toBe(200);
      const sandboxAgent = await createKey(sandboxKey, { label: 'sandbox agent', scope: 'read_only' });
      const liveAgent = await service.admin('POST', `/partners/${partnerId}/keys`, {
        environment: 'live',
        label: 'live agent',
        scope: 'read_only',
        expires_at: '2099-01-01T00:00:00Z',
      });
      expect(liveAgent.status).toBe(201);
      for (const keep of [null, 'yes', 1]) {
        const refused = await service.admin('POST', `/partners/${partnerId}/keys/regenerate`, {
          environment: 'sandbox',
          keep_restricted_keys: keep,
        });
        expectError(refused, 400, 'validation_failed');
      }
      // Nothing was regenerated by the refused calls.
      expect(await balance(sandboxKey)).toBe('1000.00');
      const regenerated = await service.admin('POST', `/partners/${partnerId}/keys/regenerate`, {
        environment: 'sandbox',
        keep_restricted_keys: false,
      });
      expect(regenerated.body.revoked_restricted_keys).toEqual([
        { key_id: sandboxAgent.body.key_id, label: 'sandbox agent' },
      ]);
      expectError(await service.partner('GET', '/balance', sandboxAgent.body.api_key), 401, 'invalid_api_key');
      expect((await service.partner('GET', '/balance', liveAgent.body.api_key)).status).toBe(200);
    });
  });

  it('the CLI creates a restricted key with a rate limit of its own, at most the environment’s', async () => {
    const { partnerId } = await service.createPartner('IN');
    const args = [
      'key',
      'create',
      partnerId,
      '--environment',
      'sandbox',
      '--label',
      'slow agent',
      '--scope',
      'read_only',
      '--expires-at',
      '2099-01-01T00:00:00Z',
    ];
    const created = printedJson(await runCli([...args, '--rate-limit', '5'], env));
    expect(created).toMatchObject({ label: 'slow agent', rate_limit: 5, created_by: { type: 'operator' } });
    const refused = await runCli([...args, '--rate-limit', '61'], env);
    expect(refused.code).not.toBe(0);
    expect(JSON.parse(refused.stderr)).toEqual({
      error: 'validation_failed',
      detail: expect.stringMatching(/^rate_limit:/),
    });
  });

  describe('the key lists', () => {
    it('show who created each key and when it was last used, the main key included', async () => {
      const { partnerId, sandboxKey } = await service.createPartner('IN');
      const mainKeyId = (await service.partner('GET', '/keys', sandboxKey)).body.main_key.key_id;
      const byPartner = await createKey(sandboxKey, { label: 'by partner', scope: 'read_only' });
      const byOperator = await service.admin('POST', `/partners/${partnerId}/keys`, {
        environment: 'sandbox',
        label: 'by operator',
        scope: 'read_only',
        expires_at: '2099-01-01T00:00:00Z',
      });
      expect(byPartner.body).toMatchObject({
        created_by: { type: 'partner_key', id: mainKeyId },
        last_used_at: null,
      });
      expect(byOperator.body.created_by).toEqual({ type: 'operator', id: expect.any(String) });

      const usedAt = service.clock.now().toISOString();
      expect(await balance(byPartner.body.api_key)).toBe('1000.00');
      const listedKey = async (keyId: string) =>
        ((await service.admin('GET', `/partners/${partnerId}/keys?environment=sandbox`)).body.keys as any[]).find(
          (key) => key.key_id === keyId,
        );
      await waitForAsync(async () => (await listedKey(byPartner.body.key_id)).last_used_at !== null, {
        what: 'the last use of the key to be recorded',
      });
      expect((await listedKey(byPartner.body.key_id)).last_used_at).toBe(usedAt);
      expect((await listedKey(byOperator.body.key_id)).last_used_at).toBeNull();

      const listed = await service.partner('GET', '/keys', sandboxKey);
      expect(listed.body.main_key).toEqual({
        key_id: mainKeyId,
        created_at: expect.any(String),
        created_by: { type: 'operator', id: expect.any(String) },
        last_used_at: expect.any(String),
      });
    });
  });

  describe('a key record someone wrote to the database', () => {
    async function readOnlyKey(): Promise<{ mainKey: string; key: string; keyId: string }> {
      const { sandboxKey } = await service.createPartner('IN');
      const created = await createKey(sandboxKey, { label: 'read only', scope: 'read_only' });
      expect(created.status).toBe(201);
      return { mainKey: sandboxKey, key: created.body.api_key, keyId: created.body.key_id };
    }

    it('a restricted key whose old terms row is deleted is still restricted: no topup, no uncapped key', async () => {
      const { key, keyId } = await readOnlyKey();
      await db.query('DELETE FROM rm_key_scopes WHERE key_id = $1', [keyId]);
      expectError(await service.topup(key, topup(), 'terms-row-gone-0001'), 403, 'scope_forbidden');
      expectError(await createKey(key, { label: 'uncapped', scope: 'transact' }), 403, 'scope_forbidden');
      expect(await balance(key)).toBe('1000.00');
    });

    it('the table refuses a restricted key without its terms, and a second active main key', async () => {
      const { keyId } = await readOnlyKey();
      await expect(
        db.query('UPDATE rm_api_keys SET scope = NULL, label = NULL WHERE key_id = $1', [keyId]),
      ).rejects.toThrow(/rm_api_keys_terms/);
      await expect(
        db.query(
          `UPDATE rm_api_keys SET kind = 'main', label = NULL, scope = NULL, currency = NULL WHERE key_id = $1`,
          [keyId],
        ),
      ).rejects.toThrow(/rm_api_keys_one_main/);
    });

    it('a key whose record is inconsistent anyway is refused with 401, never taken for the main key', async () => {
      await db.query('ALTER TABLE rm_api_keys DROP CONSTRAINT rm_api_keys_terms');
      try {
        const withoutTerms = await readOnlyKey();
        await db.query('UPDATE rm_api_keys SET scope = NULL, label = NULL WHERE key_id = $1', [withoutTerms.keyId]);
        const unknownKind = await readOnlyKey();
        await db.query(`UPDATE rm_api_keys SET kind = 'superuser' WHERE key_id = $1`, [unknownKind.keyId]);
        const mainWithTerms = await readOnlyKey();
        await db.query(
          `UPDATE rm_api_keys SET scope = 'transact' WHERE kind = 'main' AND key_hash = (
          SELECT key_hash FROM rm_api_keys WHERE partner_id = (SELECT partner_id FROM rm_api_keys WHERE key_id = $1) AND kind = 'main')`,
          [mainWithTerms.keyId],
        );
        for (const { key } of [withoutTerms, unknownKind]) {
          expectError(await service.topup(key, topup(), `inconsistent-${key.slice(-8)}`), 401, 'invalid_api_key');
          expectError(await service.partner('GET', '/balance', key), 401, 'invalid_api_key');
          expectError(await createKey(key, { label: 'uncapped', scope: 'transact' }), 401, 'invalid_api_key');
        }
        expectError(await service.partner('GET', '/balance', mainWithTerms.mainKey), 401, 'invalid_api_key');
        expect(await balance(withoutTerms.mainKey)).toBe('1000.00');
        // It can still be revoked, by its partner's main key, whatever its record holds.
        const revoked = await service.partner('DELETE', `/keys/${withoutTerms.keyId}`, withoutTerms.mainKey);
        expect(revoked.body).toEqual({ key_id: withoutTerms.keyId, revoked: true });
      } finally {
        await db.query(`DELETE FROM rm_api_keys WHERE NOT (${KEY_TERMS})`);
        await db.query(`ALTER TABLE rm_api_keys ADD CONSTRAINT rm_api_keys_terms CHECK (${KEY_TERMS})`);
      }
    });
  });
});
