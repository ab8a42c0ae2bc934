import { Client } from 'pg';
import { createTestDatabase, TestDatabase } from '../../support/postgres-test-database';
import { TestService } from '../../support/test-service';

/**
 * A transaction left open on the service database holds every projection back (the readable
 * horizon). Revocations answered meanwhile must still hold at once, on every process.
 */
describe('revocations hold from their answer on, whatever the projection lag', () => {
  let database: TestDatabase;
  let operatorSide: TestService;
  let partnerSide: TestService;
  let blocker: Client;

  beforeAll(async () => {
    database = await createTestDatabase('revocation_lag');
    operatorSide = await TestService.start({ store: 'postgres', databaseUrl: database.connectionString });
    partnerSide = await TestService.start({ store: 'postgres', databaseUrl: database.connectionString });
  });
  afterAll(async () => {
    await blocker?.end().catch(() => undefined);
    await partnerSide?.close();
    await operatorSide?.close();
    await database.drop();
  });

  const holdProjectionsBack = async (): Promise<void> => {
    blocker = new Client({ connectionString: database.connectionString });
    await blocker.connect();
    await blocker.query('BEGIN');
    // Taking a transaction id is what holds the readers' horizon.
    await blocker.query('SELECT pg_current_xact_id()');
  };

  it('a suspended live key, a regenerated key and a tightened allowlist are refused on the next request, on another process, before the read models catch up', async () => {
    const suspended = await operatorSide.createPartner('IN', 'Suspended Partner');
    const liveKey = (await operatorSide.admin('POST', `/partners/${suspended.partnerId}/kyc`, { status: 'approved' }))
      .body.live_api_key as string;
    const regenerated = await operatorSide.createPartner('IN', 'Regenerated Partner');
    const fenced = await operatorSide.createPartner('IN', 'Allowlisted Partner');
    const bystander = await operatorSide.createPartner('IN', 'Bystander Partner');
    for (const key of [liveKey, regenerated.sandboxKey, fenced.sandboxKey, bystander.sandboxKey]) {
      expect((await partnerSide.partner('GET', '/balance', key)).status).toBe(200);
    }

    await holdProjectionsBack();
    const [suspension, regeneration, allowlist] = await Promise.all([
      operatorSide.admin('POST', `/partners/${suspended.partnerId}/kyc`, { status: 'suspended' }),
      operatorSide.admin('POST', `/partners/${regenerated.partnerId}/keys/regenerate`, { environment: 'sandbox' }),
      operatorSide.admin('PATCH', `/partners/${fenced.partnerId}/settings`, {
        environment: 'sandbox',
        ip_allowlist: ['10.0.0.0/8'],
      }),
    ]);
    expect([suspension.status, regeneration.status, allowlist.status]).toEqual([200, 200, 200]);
    const newKey = regeneration.body.api_key as string;

    // The read models still say the old keys are fine: the refusal comes from the fence.
    for (const service of [partnerSide, operatorSide]) {
      for (const key of [liveKey, regenerated.sandboxKey, fenced.sandboxKey]) {
        const answer = await service.partner('GET', '/balance', key);
        expect({ status: answer.status, body: answer.body }).toEqual({
          status: 503,
          body: { error: 'access_change_pending', detail: expect.any(String) },
        });
      }
    }
    // Nothing else is held up by the lag.
    expect((await partnerSide.partner('GET', '/balance', bystander.sandboxKey)).status).toBe(200);

    await blocker.query('COMMIT');
    await partnerSide.settle();
    expect((await partnerSide.partner('GET', '/balance', liveKey)).body.error).toBe('kyc_required');
    expect((await partnerSide.partner('GET', '/balance', regenerated.sandboxKey)).body.error).toBe('invalid_api_key');
    expect((await partnerSide.partner('GET', '/balance', newKey)).status).toBe(200);
    expect((await partnerSide.partner('GET', '/balance', fenced.sandboxKey)).body.error).toBe('ip_not_allowed');
  });
});
