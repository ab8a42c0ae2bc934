import { ManualClock } from '../../support/manual-clock';
import { RunningSimulator, startSimulator } from '../../../tools/provider-sim/simulator';
import { ServiceDoubles, SimulatedService } from '../../simulation/simulated-service';
import { createTestDatabase, TestDatabase } from '../../support/postgres-test-database';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';
import {
  crashWithLiveTopupInFlight,
  expectInDoubtNotSentAgain,
  expectSettledOnceWhenShown,
  liveDrillDoubles,
} from '../../support/live-topup-in-flight';

/*
 * Failure drill: the service dies while a live topup's first POST /topups is in flight at a
 * Reloadly-protocol upstream, which records it but keeps it out of its look-ups for a while. The
 * restarted service retries the submission once the job's lease has run out: the run before it
 * left nothing, so the order is put in doubt and only looked up — never sent again, never refunded
 * — until the upstream shows the topup, which then settles it once.
 */
jest.setTimeout(SERVICE_START_TIMEOUT_MS);

const MINUTE = 60_000;

describe('failure drill: a live topup in flight when the service dies', () => {
  let database: TestDatabase;
  let simulator: RunningSimulator;
  let doubles: ServiceDoubles;
  const services: SimulatedService[] = [];

  const start = async (): Promise<SimulatedService> => {
    const service = await SimulatedService.start(database.connectionString, doubles);
    services.push(service);
    return service;
  };

  beforeEach(async () => {
    database = await createTestDatabase('drill_in_flight');
    // The in-flight topup holds its connection a minute and stays out of look-ups until the test reveals it.
    simulator = await startSimulator({ seed: 5, settleAfterMs: 0, hangMs: MINUTE, invisibleMs: 60 * MINUTE });
    // The service runs on the wall clock, as the upstream does: a look-up reads the report over the order's dates.
    doubles = liveDrillDoubles(simulator, new ManualClock(new Date()));
  });
  afterEach(async () => {
    for (const service of services.splice(0)) await service.crash().catch(() => undefined);
    await simulator.close();
    await database.drop();
  });

  it('the restarted service puts the order in doubt, looks it up without sending it again, and settles it once when the upstream shows it', async () => {
    const first = await start();
    const { token, orderId } = await crashWithLiveTopupInFlight(first, simulator);

    const restarted = await start();
    doubles.clock.advance(5 * MINUTE + 1_000);
    await restarted.settle();
    await expectInDoubtNotSentAgain(restarted, simulator, orderId);
    await expectSettledOnceWhenShown(restarted, simulator, doubles.clock, { token, orderId });
  });
});
