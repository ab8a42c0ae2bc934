import { createTestDatabase, TestDatabase } from '../../support/postgres-test-database';
import { TestService } from '../../support/test-service';

/**
 * A busy partner's keys are admitted from leases (decision 0161). Whatever changes their access answers only once no
 * process can use a lease taken before it, so the change holds on the next request on another process.
 */
describe('admission leases end with every change of access, on every process', () => {
  let database: TestDatabase;
  let operatorSide: TestService;
  let partnerSide: TestService;

  beforeAll(async () => {
    database = await createTestDatabase('leases_across_processes');
    operatorSide = await TestService.start({ store: 'postgres', databaseUrl: database.connectionString });
    partnerSide = await TestService.start({ store: 'postgres', databaseUrl: database.connectionString });
  });
  afterAll(async () => {
    await partnerSide?.close();
    await operatorSide?.close();
    await database.drop();
  });

  const busyPartner = async (name: string): Promise<{ partnerId: string; sandboxKey: string }> => {
    const partner = await operatorSide.createPartner('IN', name);
    const lifted = await operatorSide.admin('PATCH', `/partners/${partner.partnerId}/settings`, {
      environment: 'sandbox',
      rate_limit: 100_000,
    });
    expect(lifted.status).toBe(200);
    // Enough requests in turn for the partner's process to hold a lease of its key.
    for (let request = 0; request < 30; request++)
      expect((await partnerSide.partner('GET', '/balance', partner.sandboxKey)).status).toBe(200);
    return partner;
  };

  it('a regenerated key is refused on the next request on the process that was admitting it from a lease', async () => {
    const partner = await busyPartner('Busy Regenerated');
    const regeneration = await operatorSide.admin('POST', `/partners/${partner.partnerId}/keys/regenerate`, {
      environment: 'sandbox',
    });
    expect(regeneration.status).toBe(200);

    const old = await partnerSide.partner('GET', '/balance', partner.sandboxKey);
    expect(old.status).not.toBe(200);
    expect(old.body.error).toMatch(/^(invalid_api_key|access_change_pending)$/);
    expect((await partnerSide.partner('GET', '/balance', regeneration.body.api_key as string)).status).toBe(200);
  });

  it('a lowered rate limit holds from its answer on, on the process that was admitting from a lease', async () => {
    const partner = await busyPartner('Busy Lowered');
    const lowered = await operatorSide.admin('PATCH', `/partners/${partner.partnerId}/settings`, {
      environment: 'sandbox',
      rate_limit: 5,
    });
    expect(lowered.status).toBe(200);

    const statuses: number[] = [];
    for (let request = 0; request < 10; request++)
      statuses.push((await partnerSide.partner('GET', '/balance', partner.sandboxKey)).status);
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(5);
    expect(statuses.slice(-3)).toEqual([429, 429, 429]);
  });
});
