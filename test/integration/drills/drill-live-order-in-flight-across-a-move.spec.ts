import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
import { runCli } from '../../support/run-cli';

/*
 * Failure drill: a live topup's first POST /topups is in flight at a Reloadly-protocol upstream
 * (which records it but keeps it out of its look-ups for a while) when the service dies and its
 * history is moved to another database with `data export` and `data import`. The job rows do not
 * move, so nothing tells the new database that a submission run was under way: the imported work
 * puts the order in doubt first, and it is only looked up — never sent again, never refunded —
 * until the upstream shows the topup, which then settles it once.
 */
jest.setTimeout(SERVICE_START_TIMEOUT_MS);

const MINUTE = 60_000;

describe('failure drill: a live topup in flight when its history is moved', () => {
  let database: TestDatabase;
  let moved: TestDatabase;
  let simulator: RunningSimulator;
  let doubles: ServiceDoubles;
  const services: SimulatedService[] = [];
  const scratch = mkdtempSync(join(tmpdir(), 'drill-moved-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  const start = async (on: TestDatabase): Promise<SimulatedService> => {
    const service = await SimulatedService.start(on.connectionString, doubles);
    services.push(service);
    return service;
  };

  beforeEach(async () => {
    database = await createTestDatabase('drill_moved_from');
    moved = await createTestDatabase('drill_moved_to');
    // The in-flight topup holds its connection a minute and stays out of look-ups until the test reveals it.
    simulator = await startSimulator({ seed: 5, settleAfterMs: 0, hangMs: MINUTE, invisibleMs: 60 * MINUTE });
    // The import binds the Idempotency-Keys of the last 24 hours by the wall clock: the service runs on it too.
    doubles = liveDrillDoubles(simulator, new ManualClock(new Date()));
  });
  afterEach(async () => {
    for (const service of services.splice(0)) await service.crash().catch(() => undefined);
    await simulator.close();
    await Promise.all([database.drop(), moved.drop()]);
  });

  it('the service on the imported history puts the order in doubt, looks it up without sending it again, and settles it once when the upstream shows it', async () => {
    const first = await start(database);
    const { token, orderId } = await crashWithLiveTopupInFlight(first, simulator);

    const env = (on: TestDatabase) => ({ EVENT_STORE: 'postgres', DATABASE_URL: on.connectionString });
    const exported = await runCli(['data', 'export'], env(database));
    expect(exported.code).toBe(0);
    const file = join(scratch, 'log.jsonl');
    writeFileSync(file, exported.stdout);
    const imported = await runCli(['data', 'import', file], env(moved));
    expect({ code: imported.code, jobs: JSON.parse(imported.stdout).jobs_scheduled }).toEqual({ code: 0, jobs: 1 });

    const restarted = await start(moved);
    await restarted.settle();
    const [, inDoubt] = await expectInDoubtNotSentAgain(restarted, simulator, orderId);
    expect(inDoubt.data).toMatchObject({ reason: expect.stringContaining('data import') });
    await expectSettledOnceWhenShown(restarted, simulator, doubles.clock, { token, orderId });
  });
});
