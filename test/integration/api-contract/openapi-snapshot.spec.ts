import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { breakingChanges } from '../../../tools/openapi/breaking-changes';
import { canonicalJson, OPENAPI_SNAPSHOT_FILE } from '../../../tools/openapi/canonical-json';
import { TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

const REGENERATE = 'npm run openapi:regenerate (the snapshot, then the client and the Bruno collection from it)';

describe('the checked-in OpenAPI snapshot (clients/typescript/openapi.json) and the error reference it links', () => {
  let service: TestService;
  let served: unknown;
  const snapshotText = readFileSync(join(__dirname, '..', '..', '..', OPENAPI_SNAPSHOT_FILE), 'utf8');

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres' });
    const answer = await service.request('GET', '/v1/partner/openapi.json');
    expect(answer.status).toBe(200);
    served = answer.body;
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await service.close();
  });

  it('is not broken by the served document: no operation, parameter or field partners rely on is gone', () => {
    const changes = breakingChanges(JSON.parse(snapshotText), served);
    const hint =
      'These changes break integrations written against the snapshot. Make them additive; ' +
      'if a break is intended, it needs a new interface version, then ' +
      REGENERATE;
    expect({ breakingChanges: changes, hint: changes.length ? hint : null }).toEqual({
      breakingChanges: [],
      hint: null,
    });
  });

  it('links the error reference, which the service serves without a key', async () => {
    const document = served as {
      externalDocs?: { url: string };
      components: { schemas: { Error: { description: string } } };
    };
    expect(document.externalDocs?.url).toBe('/docs/errors.md');
    expect(document.components.schemas.Error.description).toContain('/docs/errors.md');
    const page = await service.request('GET', '/docs/errors.md');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(page.text).toBe(readFileSync(join(__dirname, '..', '..', '..', 'docs', 'errors.md'), 'utf8'));
  });

  it('is the document the service serves, byte for byte', () => {
    const text = canonicalJson(served);
    if (text === snapshotText) return;
    const servedLines = text.split('\n');
    const snapshotLines = snapshotText.split('\n');
    const firstDifference = servedLines.findIndex((line, index) => line !== snapshotLines[index]);
    throw new Error(
      `The served OpenAPI document differs from ${OPENAPI_SNAPSHOT_FILE} from line ${firstDifference + 1}:\n` +
        `  snapshot: ${snapshotLines[firstDifference] ?? '(end of file)'}\n` +
        `  served:   ${servedLines[firstDifference] ?? '(end of file)'}\n` +
        `Update it with ${REGENERATE}, and review the diff.`,
    );
  });
});
