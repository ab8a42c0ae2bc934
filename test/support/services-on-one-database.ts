import { createTestDatabase, TestDatabase } from './postgres-test-database';
import { TestService, TestServiceOptions } from './test-service';

/**
 * Service processes started and stopped one after another on one fresh PostgreSQL database, as a
 * deployment's restarts and successors are: whatever a test leaves running is closed at the end.
 */
export class ServicesOnOneDatabase {
  private readonly running: TestService[] = [];

  private constructor(readonly database: TestDatabase) {}

  static async create(databaseName: string): Promise<ServicesOnOneDatabase> {
    return new ServicesOnOneDatabase(await createTestDatabase(databaseName));
  }

  async start(options: Omit<TestServiceOptions, 'store' | 'databaseUrl'> = {}): Promise<TestService> {
    const service = await TestService.start({
      ...options,
      store: 'postgres',
      databaseUrl: this.database.connectionString,
    });
    this.running.push(service);
    return service;
  }

  async stop(service: TestService): Promise<void> {
    this.running.splice(this.running.indexOf(service), 1);
    await service.close();
  }

  /** Closes every service still running, then drops the database. */
  async close(): Promise<void> {
    for (const service of this.running.splice(0)) await service.close();
    await this.database.drop();
  }
}
