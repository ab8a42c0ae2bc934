import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectServedWithPageHeaders } from '../../support/page-headers';
import { TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

const SHARED_FOLDER = join(__dirname, '..', '..', '..', 'src', 'interface', 'shared', 'web', 'public');
const SHARED_FILES: readonly (readonly [string, string])[] = [
  ['shared.css', 'text/css; charset=utf-8'],
  ['shared-api.js', 'application/javascript; charset=utf-8'],
  ['shared-page.js', 'application/javascript; charset=utf-8'],
];

describe('what the portal and the console share, served to each', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres' });
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await service.close();
  });

  it.each(['portal', 'console'])(
    '/%s serves the one shared style sheet and modules under its own path, with its security headers',
    async (page) => {
      await expectServedWithPageHeaders(
        service.url,
        SHARED_FILES.map(([file, type]) => [`/${page}/${file}`, type] as const),
      );
      for (const [file] of SHARED_FILES) {
        const served = await (await fetch(`${service.url}/${page}/${file}`)).text();
        expect({ file, served }).toEqual({ file, served: readFileSync(join(SHARED_FOLDER, file), 'utf8') });
      }
      // The shared sheet first: the page's own sheet sets its sizes and adds to it.
      const html = await (await fetch(`${service.url}/${page}`)).text();
      expect(html).toContain(
        `<link rel="stylesheet" href="/${page}/shared.css">\n  <link rel="stylesheet" href="/${page}/${page}.css">`,
      );
      // The tab panels are part of the page's document, never a file of their own.
      expect((await fetch(`${service.url}/${page}/panels.html`)).status).toBe(404);
    },
  );
});
