/**
 * Writes the OpenAPI document the service serves to clients/typescript/openapi.json (keys
 * sorted), the snapshot the TypeScript client and the Bruno collection are generated from.
 * Starts a real service on a scratch database of the test PostgreSQL server (TEST_DATABASE_URL).
 *
 *   npm run openapi:snapshot
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestService } from '../test/support/test-service';
import { canonicalJson, OPENAPI_SNAPSHOT_FILE } from '../tools/openapi/canonical-json';

async function main(): Promise<void> {
  const service = await TestService.start({ store: 'postgres' });
  try {
    const served = await service.request('GET', '/v1/partner/openapi.json');
    if (served.status !== 200) throw new Error(`GET /v1/partner/openapi.json answered ${served.status}`);
    writeFileSync(join(__dirname, '..', OPENAPI_SNAPSHOT_FILE), canonicalJson(served.body));
    process.stdout.write(`wrote ${OPENAPI_SNAPSHOT_FILE}\n`);
  } finally {
    await service.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
