import { Browser } from 'playwright-core';
import { browserAvailable, launchBrowser } from '../../support/browser';
import { TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

const describeInBrowser = browserAvailable('the API docs page browser test') ? describe : describe.skip;

/** The docs page's security headers (docs/decisions/0132-docs-page-headers.md) leave Swagger UI working. */
describeInBrowser('the API docs page, in Chromium under its Content-Security-Policy', () => {
  let service: TestService;
  let browser: Browser;

  beforeAll(async () => {
    [service, browser] = await Promise.all([TestService.start({ store: 'postgres' }), launchBrowser()]);
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  it('renders the partner API with no policy violation and no request to another site', async () => {
    const page = await browser.newPage();
    const violations: string[] = [];
    const elsewhere: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    page.on('request', (request) => {
      if (!request.url().startsWith(service.url) && !request.url().startsWith('data:')) elsewhere.push(request.url());
    });
    await page.goto(`${service.url}/docs`);
    await page
      .locator('.swagger-ui .info .title')
      .filter({ hasText: 'Partner Recharge and Bill Payment API' })
      .waitFor();
    await page.locator('.opblock-summary-path').filter({ hasText: '/v1/partner/topup' }).first().waitFor();
    expect({ violations, elsewhere }).toEqual({ violations: [], elsewhere: [] });
    await page.close();
  });
});
