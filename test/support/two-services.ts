import { ManualClock } from './manual-clock';
import { createTestDatabase, TestDatabase } from './postgres-test-database';
import { TestService, TestServiceOptions } from './test-service';

/** Two service instances on one fresh PostgreSQL database with one clock: what two processes of a deployment share. */
export interface TwoServices {
  database: TestDatabase;
  first: TestService;
  second: TestService;
}

export async function startTwoServices(
  databaseName: string,
  options: Omit<TestServiceOptions, 'store' | 'databaseUrl'> = {},
): Promise<TwoServices> {
  const database = await createTestDatabase(databaseName);
  const shared = {
    clock: new ManualClock(new Date()),
    ...options,
    store: 'postgres' as const,
    databaseUrl: database.connectionString,
  };
  const first = await TestService.start(shared);
  const second = await TestService.start(shared);
  return { database, first, second };
}

export async function stopTwoServices(services: Partial<TwoServices>): Promise<void> {
  await services.first?.close();
  await services.second?.close();
  await services.database?.drop();
}
