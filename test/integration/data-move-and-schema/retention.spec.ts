import { BackgroundProcessing } from '../../../src/infrastructure/processing/background-processing';
import { sqlOf } from '../../support/ledger';
import { RecordingReceiver } from '../../support/recording-receiver';
import { SANDBOX_PHONES, TestService } from '../../support/test-service';

const DAY = 24 * 3600_000;

/** Finished jobs and webhook records are deleted by age on the service's clock; money facts never are. */
describe('retention of finished jobs and webhook records', () => {
  let service: TestService;
  let receiver: RecordingReceiver;
  let failingReceiver: RecordingReceiver;

  beforeAll(async () => {
    receiver = await RecordingReceiver.start();
    failingReceiver = await RecordingReceiver.start();
    failingReceiver.answerWith(500);
    // The receivers listen on 127.0.0.1: a private deployment's opt-in.
    service = await TestService.start({ store: 'postgres', env: { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' } });
  });
  afterAll(async () => {
    await service.close();
    await receiver.stop();
    await failingReceiver.stop();
  });

  const purge = () => service.app.get(BackgroundProcessing).purgeRetained();
  const count = async (sql: string) => Number((await sqlOf(service).query<{ n: string }>(sql))[0].n);
  const partnerWithWebhook = async (url: string): Promise<string> => {
    const { partnerId, sandboxKey } = await service.createPartner('IN');
    expect(
      (await service.admin('PATCH', `/partners/${partnerId}/settings`, { environment: 'sandbox', webhook_url: url }))
        .status,
    ).toBe(200);
    const placed = await service.topup(
      sandboxKey,
      { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 100 },
      `retention-${partnerId}`,
    );
    expect(placed.status).toBe(200);
    return sandboxKey;
  };
  const deliveries = async (key: string) =>
    (await service.partner('GET', '/webhook-deliveries', key)).body.deliveries as {
      state: string;
      attempts: unknown[];
    }[];

  it('keeps everything younger than its age, then drops finished jobs and attempts after 30 days and finished deliveries after 90, never unfinished work', async () => {
    const delivered = await partnerWithWebhook(receiver.url);
    const retrying = await partnerWithWebhook(failingReceiver.url);
    await service.settle();
    expect((await deliveries(delivered))[0]).toMatchObject({ state: 'SUCCEEDED', attempts: [expect.anything()] });
    expect((await deliveries(retrying))[0]).toMatchObject({ state: 'RETRYING', attempts: [expect.anything()] });
    const doneJobs = await count('SELECT count(*)::text AS n FROM jobs WHERE done_at IS NOT NULL');
    const openJobs = await count('SELECT count(*)::text AS n FROM jobs WHERE done_at IS NULL');
    expect(doneJobs).toBeGreaterThan(0);
    expect(openJobs).toBeGreaterThan(0);

    service.clock.advance(29 * DAY);
    expect(await purge()).toEqual({ jobs: 0, webhookAttempts: 0, webhookDeliveries: 0, keyRefusals: 0 });

    service.clock.advance(2 * DAY);
    expect(await purge()).toEqual({ jobs: doneJobs, webhookAttempts: 1, webhookDeliveries: 0, keyRefusals: 0 });
    expect(await count('SELECT count(*)::text AS n FROM jobs WHERE done_at IS NULL')).toBe(openJobs);
    expect((await deliveries(delivered))[0]).toMatchObject({ state: 'SUCCEEDED', attempts: [] });
    expect((await deliveries(retrying))[0]).toMatchObject({ state: 'RETRYING', attempts: [expect.anything()] });

    service.clock.advance(60 * DAY);
    expect(await purge()).toEqual({ jobs: 0, webhookAttempts: 0, webhookDeliveries: 1, keyRefusals: 0 });
    expect(await deliveries(delivered)).toEqual([]);
    expect(await deliveries(retrying)).toHaveLength(1);
    // The money is all still in the log.
    expect((await service.verify()).body).toMatchObject({ ok: true });
  });

  it('purges a backlog larger than one batch completely, batch by batch', async () => {
    const old = new Date(service.clock.now().getTime() - 40 * DAY).toISOString();
    await sqlOf(service).query(
      `INSERT INTO jobs (job_id, kind, payload, due_at, attempts, done_at)
       SELECT 'old-job-' || n, 'submit-order', '{}'::jsonb, $1, 1, $1 FROM generate_series(1, 2500) AS n`,
      [old],
    );
    const purged = await purge();
    expect(purged.jobs).toBe(2500);
    expect(await count(`SELECT count(*)::text AS n FROM jobs WHERE job_id LIKE 'old-job-%'`)).toBe(0);
  });
});
