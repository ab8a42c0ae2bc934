import { randomUUID } from 'node:crypto';
import { Browser, Page } from 'playwright-core';
import { browserAvailable, launchBrowser } from '../../support/browser';
import { LiveUpstream, startLiveUpstream } from '../../support/live-provider';
import { OtlpReceiver } from '../../support/otlp-receiver';
import { createTestDatabase, TestDatabase } from '../../support/postgres-test-database';
import { ServiceProcess } from '../../support/service-process';
import { SANDBOX_PHONES, TEST_ADMIN_TOKEN, TEST_KEY_SECRET, TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

const OPERATOR = 'ops.overview';
const SERVER_SPAN = 2;

const describeInBrowser = browserAvailable('the console overview tests') ? describe : describe.skip;

/** Signs in to the console on the page (at whatever address it is) and waits for the operator's name to show. */
async function signInAs(page: Page, token: string, name: string): Promise<void> {
  await page.fill('#operator-token', token);
  await page.click('#sign-in-form button[type=submit]');
  await page.locator('#operator-name').filter({ hasText: name }).waitFor();
}

describeInBrowser('the console overview, the landing page, in Chromium against a real service', () => {
  let upstream: LiveUpstream;
  let service: TestService;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    upstream = await startLiveUpstream(
      { balance: '420.50', currency: 'USD' },
      { RELOADLY_LOW_FLOAT_THRESHOLD: '500.00' },
    );
    // One after the other, not side by side: if one fails to start, the other is still assigned and closed by afterAll
    // (a browser launched beside a failed start was never closed, and kept the jest worker from exiting).
    browser = await launchBrowser();
    service = await TestService.start({
      store: 'postgres',
      env: { ...upstream.env, WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' },
    });
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await service?.close();
    await upstream?.close();
  });
  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });
  afterEach(async () => {
    await page.close();
    expect(pageErrors).toEqual([]);
  });

  const text = (selector: string) => page.locator(selector).first().innerText();
  /** A finance operator: the overview is a read, open to every role. */
  const signIn = async (target: Page) => signInAs(target, await service.operatorToken(OPERATOR, 'finance'), OPERATOR);
  const figure = (name: string) => text(`#overview-tiles [data-tile="${name}"] dd.figure`);
  const place = (key: string, suffix: string, amount: number) =>
    service.topup(key, { operator_id: 101, phone: SANDBOX_PHONES.IN(suffix), amount }, `overview-${randomUUID()}`);

  it("opens on the overview: today's orders and amounts from real orders, the service's charts, and the float, breaker, webhook and lag panels", async () => {
    const { partnerId, sandboxKey } = await service.createPartner('IN', 'Overview Page Partner');
    const hooked = await service.admin('PATCH', `/partners/${partnerId}/settings`, {
      environment: 'sandbox',
      webhook_url: 'http://127.0.0.1:9/closed',
    });
    expect(hooked.status).toBe(200);
    for (const [suffix, amount] of [
      ['0001', 50],
      ['0001', 70],
      ['0002', 30],
    ] as const)
      expect((await place(sandboxKey, suffix, amount)).status).toBe(200);
    await service.settle();
    const today = service.clock.now().toISOString().slice(0, 10);

    await page.goto(`${service.url}/console`);
    await signIn(page);
    expect(await page.locator('#tab-overview').isVisible()).toBe(true);
    expect(await page.getAttribute('[data-tab=overview]', 'aria-selected')).toBe('true');
    expect(new URL(page.url()).hash).toBe('#overview');
    expect(await text('#overview-today')).toBe(today);

    expect(await figure('Orders today')).toBe('3');
    expect(await figure('Success rate today')).toBe('66.7 %');
    expect(await figure('Held now')).toBe('0');
    expect(await figure('Refunds')).toBe('1');
    const todayRow = page.locator('#overview-corridors tr[data-scope="INR sandbox"][data-period=today]');
    expect(await todayRow.innerText()).toMatch(
      /IN \(INR\)\s+sandbox\s+today\s+3 · 150\.00 INR\s+2 · 120\.00 INR\s+1 · 30\.00 INR\s+1 · 30\.00 INR\s+0/,
    );
    expect(await page.locator('#overview-provider-rates tr[data-name=sandbox]').innerText()).toMatch(
      /sandbox\s+2\s+1\s+66\.7 %/,
    );

    // The charts are the service's SVG, adopted as drawing only.
    const chart = page.locator('#overview-orders-chart > svg');
    await chart.waitFor();
    expect(await chart.getAttribute('aria-label')).toBe('Orders per day, last 7 days');
    expect(await page.locator(`#overview-orders-chart svg title:text-is("${today} placed: 3")`).count()).toBe(1);
    expect(await page.locator('#overview-webhooks-chart > svg').count()).toBe(1);
    expect(await page.locator('#tab-overview script, #tab-overview img').count()).toBe(0);

    // The live provider: our float there against its threshold, and its breaker.
    const provider = await page.locator('#overview-providers tr[data-provider=reloadly]').innerText();
    expect(provider).toMatch(/reloadly\s+420\.5 USD\s+500\.00\s+LOW/);
    expect(provider).toContain('closed (0 unknown in a row)');
    expect(await page.locator('#overview-providers td.float.low').count()).toBe(1);
    expect(await page.getAttribute('#overview-tiles [data-tile="Live providers"]', 'class')).toContain('attention');
    // Three outcomes announced to a closed port: three refused attempts, each to be retried.
    expect(await page.locator('#overview-webhooks tr[data-period=today]').innerText()).toMatch(
      /today\s+3\s+0\s+3\s+0\s+100\.0 %/,
    );
    expect(await figure('Webhook failures today')).toBe('100.0 %');
    expect(await page.locator('#overview-projections tr[data-projection=read-models]').innerText()).toMatch(
      /read-models\s+\d+(\.\d)? s/,
    );
    expect(await text('#overview-as-of')).toMatch(/rows of counters and events/);

    // One more order, and Refresh shows it.
    expect((await place(sandboxKey, '0005', 25)).status).toBe(200);
    await service.settle();
    await page.click('#refresh');
    await page.locator('#overview-tiles [data-tile="Orders today"] dd.figure').filter({ hasText: '4' }).waitFor();
    expect(await todayRow.innerText()).toContain('4 · 175.00 INR');
  });

  it('keeps deep links: /console#orders signs in to the orders, each page has its address, and a followed link switches pages', async () => {
    const { sandboxKey } = await service.createPartner('IN', 'Deep Link Partner');
    const placed = await place(sandboxKey, '0001', 10);
    await service.settle();

    await page.goto(`${service.url}/console#orders`);
    await signIn(page);
    expect(await page.getAttribute('[data-tab=orders]', 'aria-selected')).toBe('true');
    expect(await page.locator('#tab-overview').isHidden()).toBe(true);
    await page.locator(`#orders tr[data-order-id="${placed.body.order_id}"]`).waitFor();

    await page.click('[data-tab=webhooks]');
    expect(new URL(page.url()).hash).toBe('#webhooks');
    await page.evaluate(() => {
      (globalThis as unknown as { location: { hash: string } }).location.hash = '#engineering';
    });
    await page.locator('#projections tr').first().waitFor();
    expect(await page.getAttribute('[data-tab=engineering]', 'aria-selected')).toBe('true');

    // An order's timeline without tracing shows no trace id.
    await page.click('[data-tab=orders]');
    await page.click(`#orders tr[data-order-id="${placed.body.order_id}"]`);
    await page.locator('#order-timeline tr').filter({ hasText: 'WalletDebited' }).waitFor();
    expect(await page.locator('#order-timeline td.trace').allInnerTexts()).toEqual(expect.arrayContaining(['—']));
    expect(new Set(await page.locator('#order-timeline td.trace').allInnerTexts())).toEqual(new Set(['—']));
  });

  it('draws only what a chart draws: a script, an event handler or a link in the SVG never reaches the page', async () => {
    await page.route('**/v1/admin/overview/orders-by-day.svg', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'image/svg+xml',
        body:
          '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">' +
          '<script>window.__fromChart = 1</script>' +
          '<rect width="5" height="5" onclick="window.__fromChart = 2" style="fill: red"/>' +
          '<a href="javascript:window.__fromChart = 3"><text>link</text></a>' +
          '<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">html</div></foreignObject>' +
          '<image xlink:href="https://example.com/x.png"/></svg>',
      }),
    );
    await page.goto(`${service.url}/console`);
    await signIn(page);
    await page.locator('#overview-orders-chart > svg rect').waitFor();
    const kept = await page.evaluate(() => {
      const box = (
        globalThis as unknown as {
          document: { getElementById(id: string): { innerHTML: string } | null };
        }
      ).document.getElementById('overview-orders-chart');
      return box?.innerHTML ?? '';
    });
    expect(kept).not.toMatch(/script|onclick|href|foreignObject|<a|image|style/i);
    await page.locator('#overview-orders-chart > svg rect').click();
    expect(await page.evaluate(() => (globalThis as { __fromChart?: number }).__fromChart)).toBeUndefined();
  });
});

/*
 * The Trace column of an order's timeline: with tracing on (OTEL_* to a collector this test runs),
 * each event shows the trace id of the request or job that appended it, the same id the collector
 * received, so an operator can take it from the console to the trace viewer.
 */
describeInBrowser('the Trace column of the console order timeline, with tracing on', () => {
  let database: TestDatabase;
  let collector: OtlpReceiver;
  let service: ServiceProcess;
  let browser: Browser;

  beforeAll(async () => {
    database = await createTestDatabase('console_trace');
    collector = await OtlpReceiver.start();
    // One after the other, not side by side: if one fails to start, the other is still assigned and closed by afterAll
    // (a browser launched beside a failed start was never closed, and kept the jest worker from exiting).
    browser = await launchBrowser();
    // The process compiles the sources as it starts: on a busy machine that takes longer than ServiceProcess's default.
    service = await ServiceProcess.start(
      'console-traced',
      {
        EVENT_STORE: 'postgres',
        DATABASE_URL: database.connectionString,
        API_KEY_SECRET: TEST_KEY_SECRET,
        ADMIN_TOKEN: TEST_ADMIN_TOKEN,
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_SERVICE_NAME: 'console-trace-test',
        OTEL_BSP_SCHEDULE_DELAY: '100',
      },
      SERVICE_START_TIMEOUT_MS,
    );
  }, SERVICE_START_TIMEOUT_MS + 30_000);
  afterAll(async () => {
    await browser?.close();
    try {
      await service?.stop();
    } finally {
      await collector?.stop();
      await database?.drop();
    }
  }, 40_000);

  const call = async (method: string, path: string, token: string, body?: unknown, headers = {}) => {
    const response = await fetch(`${service.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  it("shows each event's trace id: the placing request's for what it wrote, the refund job's own for the refund", async () => {
    const created = await call('POST', '/v1/admin/partners', TEST_ADMIN_TOKEN, { name: 'Traced', corridor: 'IN' });
    expect(created.status).toBe(201);
    // A sandbox 0002 order: its failure is known at placement and written in the request's commit
    // (decision 0112); its refund is a job of its own, traced on its own and linked to the request.
    const placed = await call(
      'POST',
      '/v1/partner/topup',
      created.body.sandbox_api_key,
      { operator_id: 101, phone: SANDBOX_PHONES.IN('0002'), amount: 100 },
      { 'idempotency-key': 'console-traced-1' },
    );
    expect(placed.status).toBe(200);
    const orderId: string = placed.body.order_id;
    const requestSpan = () =>
      collector.spans.find(
        (span) =>
          span.kind === SERVER_SPAN &&
          String(span.attributes['http.target'] ?? span.attributes['url.path']).startsWith('/v1/partner/topup'),
      );
    const isRefunded = async () =>
      (await call('GET', `/v1/admin/audit/orders/${orderId}`, TEST_ADMIN_TOKEN)).body.events.some(
        (event: { event_type: string }) => event.event_type === 'WalletRefunded',
      );
    const deadline = Date.now() + 30_000;
    while (!requestSpan() || !(await isRefunded())) {
      if (Date.now() > deadline) throw new Error('the request span or the refund did not come within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const request = requestSpan()!;

    const page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    try {
      await page.goto(`${service.url}/console#orders`);
      await signInAs(page, TEST_ADMIN_TOKEN, 'break-glass');
      await page.click(`#orders tr[data-order-id="${orderId}"]`);
      const row = (event: string) => page.locator('#order-timeline tr').filter({ hasText: event });
      await row('WalletRefunded').waitFor();
      expect(await page.locator('#order-detail th').allInnerTexts()).toContain('Trace');
      expect(await row('WalletDebited').locator('td.trace').innerText()).toBe(request.traceId);
      expect(await row('TransactionFailed').locator('td.trace').innerText()).toBe(request.traceId);
      const refund = await row('WalletRefunded').locator('td.trace').innerText();
      expect(refund).toMatch(/^[\da-f]{32}$/);
      expect(refund).not.toBe(request.traceId);
      const collected = () => collector.spans.some((span) => span.traceId === refund);
      const spanDeadline = Date.now() + 10_000;
      while (!collected() && Date.now() < spanDeadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(collected()).toBe(true);
    } finally {
      await page.close();
    }
  }, 90_000);
});
