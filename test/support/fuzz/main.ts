/**
 * The long fuzz run: `npm run fuzz -- [--seed <n>] [--seeds <n>] [--cases <n>]`.
 * Starts the service from the sources on a fresh PostgreSQL database (TEST_DATABASE_URL's server),
 * runs `cases` requests for each seed from `seed` on, prints every finding with the seed and case
 * that replay it, and exits 1 if there was any.
 */
import { createTestDatabase } from '../postgres-test-database';
import { ServiceProcess } from '../service-process';
import { TEST_ADMIN_TOKEN, TEST_KEY_SECRET } from '../test-service';
import { runPartnerApiFuzz } from './partner-api-fuzz';

const REQUEST_TIMEOUT_MS = 10_000;

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} needs a whole number`);
  return value;
}

async function main(): Promise<void> {
  const firstSeed = option('seed', Date.now() % 1_000_000);
  const seeds = option('seeds', 1);
  const cases = option('cases', 2_000);
  const database = await createTestDatabase('fuzz');
  const service = await ServiceProcess.start('fuzz', {
    EVENT_STORE: 'postgres',
    DATABASE_URL: database.connectionString,
    API_KEY_SECRET: TEST_KEY_SECRET,
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    LOG_LEVEL: 'error',
    REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
  });
  let failed = false;
  try {
    for (let seed = firstSeed; seed < firstSeed + seeds; seed++) {
      const started = Date.now();
      const { findings, statuses } = await runPartnerApiFuzz(
        { baseUrl: service.url, adminToken: TEST_ADMIN_TOKEN, requestTimeoutMs: REQUEST_TIMEOUT_MS },
        seed,
        cases,
      );
      console.log(
        `seed ${seed}: ${cases} requests in ${Date.now() - started} ms, answers ${JSON.stringify(statuses)}, ${findings.length} findings`,
      );
      for (const finding of findings) console.log(`  ${JSON.stringify(finding)}`);
      if (findings.length) {
        failed = true;
        console.log(`  replay: npm run fuzz -- --seed ${seed} --cases ${cases}`);
      }
    }
  } finally {
    await service.stop();
    await database.drop();
  }
  process.exitCode = failed ? 1 : 0;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
