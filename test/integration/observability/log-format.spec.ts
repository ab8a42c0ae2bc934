import { createTestDatabase, TestDatabase } from '../../support/postgres-test-database';
import { ServiceProcess } from '../../support/service-process';
import { TEST_ADMIN_TOKEN, TEST_KEY_SECRET } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';
import { waitFor } from '../../support/wait-for';

describe('LOG_FORMAT=pretty: readable lines for a person at a terminal', () => {
  let database: TestDatabase;
  let service: ServiceProcess;

  beforeAll(async () => {
    database = await createTestDatabase('log_format');
    service = await ServiceProcess.start(
      'log-format',
      {
        EVENT_STORE: 'postgres',
        DATABASE_URL: database.connectionString,
        API_KEY_SECRET: TEST_KEY_SECRET,
        ADMIN_TOKEN: TEST_ADMIN_TOKEN,
        LOG_FORMAT: 'pretty',
      },
      SERVICE_START_TIMEOUT_MS,
    );
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await service?.stop();
    await database?.drop();
  });

  it('writes the service’s and the access log’s lines as time, level, context and message, never as JSON, nor a secret', async () => {
    const answer = await fetch(`${service.url}/v1/admin/partners`, {
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(answer.status).toBe(200);
    await waitFor(() => /INFO {2}request .*route=\/v1\/admin\/partners status=200/.test(service.output), {
      what: 'the access log line of the request',
    });
    const lines = service.output.split('\n').filter((line) => line.trim() !== '');
    expect(lines.some((line) => /^\d\d:\d\d:\d\d\.\d{3} INFO {2}\[\w+\] /.test(line))).toBe(true);
    expect(lines.filter((line) => line.startsWith('{'))).toEqual([]);
    expect(service.output).not.toContain(TEST_ADMIN_TOKEN);
  });
});
