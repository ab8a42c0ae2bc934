import { randomUUID } from 'node:crypto';
import { ManualClock } from '../../support/manual-clock';
import { createTestDatabase, TestDatabase } from '../../support/postgres-test-database';
import { RecordingReceiver } from '../../support/recording-receiver';
import { SANDBOX_PHONES, TestService } from '../../support/test-service';

const FIVE_MINUTES = 5 * 60_000;
const ONE_DAY = 24 * 60 * 60_000;

/** The receivers of these tests listen on 127.0.0.1: a private deployment's opt-in. */
const PRIVATE_RECEIVERS = { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' };

describe('webhook delivery with several processes on one PostgreSQL database', () => {
  let database: TestDatabase;
  const running: TestService[] = [];
  let receiver: RecordingReceiver;

  beforeEach(async () => {
    database = await createTestDatabase('webhooks');
    receiver = await RecordingReceiver.start();
  });
  afterEach(async () => {
    for (const service of running.splice(0)) await service.close();
    await receiver.stop();
    await database.drop();
  });

  const start = async (clock: ManualClock): Promise<TestService> => {
    const service = await TestService.start({
      store: 'postgres',
      databaseUrl: database.connectionString,
      clock,
      env: PRIVATE_RECEIVERS,
    });
    running.push(service);
    return service;
  };

  async function failingDelivery(service: TestService): Promise<string> {
    const { partnerId, sandboxKey } = await service.createPartner('IN', 'Two Process Partner');
    expect(
      (
        await service.admin('PATCH', `/partners/${partnerId}/settings`, {
          environment: 'sandbox',
          webhook_url: receiver.url,
        })
      ).status,
    ).toBe(200);
    receiver.answerWith(500);
    const placed = await service.topup(
      sandboxKey,
      { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 100, reference: 'two-processes' },
      `webhook-${randomUUID()}`,
    );
    expect(placed.status).toBe(200);
    return sandboxKey;
  }

  it('two processes working at once make each attempt exactly once', async () => {
    const clock = new ManualClock(new Date());
    const first = await start(clock);
    const second = await start(clock);
    const key = await failingDelivery(first);

    await Promise.all([first.settle(), second.settle()]);
    expect(receiver.received).toHaveLength(1);
    for (let retry = 1; retry <= 3; retry++) {
      clock.advance(FIVE_MINUTES);
      await Promise.all([first.settle(), second.settle()]);
      expect(receiver.received).toHaveLength(retry + 1);
    }
    clock.advance(ONE_DAY);
    await Promise.all([first.settle(), second.settle()]);
    expect(receiver.received).toHaveLength(4);
    const [delivery] = (await second.partner('GET', '/webhook-deliveries', key)).body.deliveries;
    expect(delivery.state).toBe('FAILED');
    expect(delivery.attempts.map((attempt: Record<string, unknown>) => attempt.attempt)).toEqual([1, 2, 3, 4]);
  });

  it('a retry scheduled by a process that has stopped is made by the process that replaced it', async () => {
    const startedAt = new Date();
    const before = await start(new ManualClock(startedAt));
    const key = await failingDelivery(before);
    await before.settle();
    expect(receiver.received).toHaveLength(1);
    running.splice(running.indexOf(before), 1);
    await before.close();

    receiver.answerWith(200);
    const after = await start(new ManualClock(new Date(startedAt.getTime() + FIVE_MINUTES)));
    await after.settle();
    expect(receiver.received.map((webhook) => webhook.answered)).toEqual([500, 200]);
    const [delivery] = (await after.partner('GET', '/webhook-deliveries', key)).body.deliveries;
    expect(delivery.state).toBe('SUCCEEDED');
  });
});
