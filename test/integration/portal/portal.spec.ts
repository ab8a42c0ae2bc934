import { expectServedWithPageHeaders } from '../../support/page-headers';
import { Browser, Page } from 'playwright-core';
import { browserAvailable, launchBrowser } from '../../support/browser';
import { SANDBOX_PHONES, TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

interface Storage {
  length: number;
}

const describeInBrowser = browserAvailable('the partner portal tests') ? describe : describe.skip;

describe('the partner portal page', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres', env: { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' } });
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await service.close();
  });

  it('is served without a key, with headers that keep a signed-in key on this page and this service', async () => {
    await expectServedWithPageHeaders(service.url, [
      ['/portal', 'text/html; charset=utf-8'],
      ['/portal/', 'text/html; charset=utf-8'],
      ...['portal', 'api', 'page', 'balance', 'transactions', 'settings', 'deliveries', 'keys', 'events'].map(
        (module): [string, string] => [`/portal/${module}.js`, 'application/javascript; charset=utf-8'],
      ),
      ['/portal/portal.css', 'text/css; charset=utf-8'],
      ['/portal/favicon.svg', 'image/svg+xml'],
    ]);
    const page = await fetch(`${service.url}/portal`);
    const html = await page.text();
    expect(html).toContain('<script type="module" src="/portal/portal.js"></script>');
    // No inline script and no inline style: the policy above would refuse them anyway.
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toMatch(/<style|style="|\son[a-z]+="/);
    const script = await fetch(`${service.url}/portal/api.js`);
    expect(script.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(await script.text()).toContain("const API = '/v1/partner'");
  });

  it('serves nothing else under /portal', async () => {
    const answer = await fetch(`${service.url}/portal/../src/main.ts`);
    expect(answer.status).toBe(404);
    expect(await answer.json()).toMatchObject({ error: 'not_found' });
    expect((await fetch(`${service.url}/portal/index.html.bak`)).status).toBe(404);
  });
});

describeInBrowser('the partner portal in Chromium', () => {
  let service: TestService;
  let browser: Browser;
  let page: Page;
  let partnerId: string;
  let key: string;
  let failedOrderId: string;
  let acceptDialogs = true;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    // One after the other, not side by side: if one fails to start, the other is still assigned and closed by afterAll
    // (a browser launched beside a failed start was never closed, and kept the jest worker from exiting).
    browser = await launchBrowser();
    service = await TestService.start({ store: 'postgres', env: { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' } });
    ({ partnerId, sandboxKey: key } = await service.createPartner('IN', 'Portal Partner'));
    // Room for the page's own requests: each view costs a few calls against the key's budget.
    await configure(partnerId, { rate_limit: 10_000 });
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });
  beforeEach(async () => {
    page = await browser.newPage();
    page.setDefaultTimeout(10_000); // a step that never happens fails with its own name, inside the test's time
    acceptDialogs = true;
    page.on('dialog', (dialog) => void (acceptDialogs ? dialog.accept() : dialog.dismiss()));
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${service.url}/portal`);
  });
  afterEach(async () => {
    await page.close();
    expect(pageErrors).toEqual([]);
  });

  /** Operator settings of a partner's sandbox, through the back office. */
  const configure = async (id: string, settings: Record<string, unknown>) => {
    const answer = await service.admin('PATCH', `/partners/${id}/settings`, { environment: 'sandbox', ...settings });
    expect(answer.status).toBe(200);
  };
  const text = (selector: string) => page.locator(selector).first().innerText();
  const waitForText = (selector: string, expected: string) =>
    page.locator(selector).filter({ hasText: expected }).first().waitFor();
  const signIn = async (apiKey = key) => {
    await page.fill('#api-key', apiKey);
    await page.click('#sign-in-form button[type=submit]');
  };
  const topup = (suffix: string, idempotencyKey: string, reference: string) =>
    service.topup(key, { operator_id: 101, phone: SANDBOX_PHONES.IN(suffix), amount: 10, reference }, idempotencyKey);

  it("refuses a malformed key before sending it, and shows the service's refusal of a wrong one", async () => {
    await signIn('not-a-key');
    await waitForText('#sign-in-error', 'starts with svc_live_ or svc_test_');
    await signIn(`svc_test_${'A'.repeat(32)}`);
    await waitForText('#sign-in-error', 'invalid_api_key');
    expect(await page.locator('#portal').isHidden()).toBe(true);
  });

  it("shows the balance and the transactions, with the partner's text shown as text, and an order's outcome once settled", async () => {
    const hostile = '<img src=x onerror="window.__injected = 1">';
    const placed = await topup('0001', 'portal-first-0001', hostile);
    const failed = await topup('0002', 'portal-first-0002', 'will fail');
    failedOrderId = failed.body.order_id;
    await service.settle();

    await signIn();
    await waitForText('#balance', '990.00 INR');
    // The portal is shown only once the settings call has filled the partner id: no wait of its own is needed.
    expect(await text('#partner-id')).toBe(partnerId);
    expect(await text('#environment')).toBe('SANDBOX');
    await page.locator(`#transactions tr[data-order-id="${placed.body.order_id}"]`).waitFor();
    const row = (orderId: string) => page.locator(`#transactions tr[data-order-id="${orderId}"]`).innerText();
    expect(await page.locator('#transactions tr').count()).toBe(2);
    expect(await row(failed.body.order_id)).toContain('FAILED');
    expect(await row(placed.body.order_id)).toContain('SUCCESS');
    expect(await row(placed.body.order_id)).toContain(hostile);
    expect(await page.evaluate(() => (globalThis as { __injected?: number }).__injected)).toBeUndefined();
    expect(await text('#status-summary')).toContain('SUCCESS 1');
    expect(await text('#status-summary')).toContain('FAILED 1');

    await page.click(`#transactions tr[data-order-id="${placed.body.order_id}"]`);
    await page.locator('#transaction-detail').waitFor();
    const detail = await text('#detail-fields');
    expect(detail).toContain(hostile);
    expect(await page.locator('#portal img').count()).toBe(0);
    const status = (await service.partner('GET', `/transactions/${placed.body.order_id}`, key)).body;
    expect(detail).toContain(status.operator_ref);
    expect(detail).toContain(status.settled_at);
  });

  it('pages through older transactions and back, and filters by status', async () => {
    for (let n = 0; n < 21; n += 1) await topup('0003', `portal-page-${n}`, `page-${n}`);
    await service.settle(); // the list is a read model: let it catch up first
    await signIn();
    await page.locator('#transactions tr').nth(19).waitFor();
    expect(await page.locator('#transactions tr').count()).toBe(20);
    expect(await page.locator('#newer').isDisabled()).toBe(true);
    const firstPage = await page.locator('#transactions tr').allInnerTexts();

    await page.click('#older');
    await page.locator('#newer:enabled').waitFor();
    const secondPage = await page.locator('#transactions tr').allInnerTexts();
    expect(secondPage.some((row) => firstPage.includes(row))).toBe(false);

    await page.click('#newer');
    // Both buttons are disabled while a page loads; the first page, once shown, can go older again.
    await page.locator('#older:enabled').waitFor();
    expect(await page.locator('#newer').isDisabled()).toBe(true);
    expect(await page.locator('#transactions tr').allInnerTexts()).toEqual(firstPage);

    await page.selectOption('#transaction-filters select[name=status]', 'FAILED');
    await page.click('#transaction-filters button[type=submit]');
    await page.locator('#transactions tr').nth(1).waitFor({ state: 'detached' });
    await page.locator(`#transactions tr[data-order-id="${failedOrderId}"]`).waitFor();
    expect(await page.locator('#transactions tr').count()).toBe(1);
    expect(await page.locator('#older').isDisabled()).toBe(true);

    // "To" is the last day shown: from today to today lists today's orders.
    const today = service.clock.now().toISOString().slice(0, 10);
    await page.selectOption('#transaction-filters select[name=status]', '');
    await page.fill('#transaction-filters input[name=created_from]', today);
    await page.fill('#transaction-filters input[name=created_to]', today);
    await page.click('#transaction-filters button[type=submit]');
    await page.locator('#transactions tr').nth(19).waitFor();
    expect(await page.locator('#transactions-empty').isHidden()).toBe(true);
  });

  it('sets the webhook URL, shows each new secret once, and the secret is the one the service keeps', async () => {
    await signIn();
    await page.click('[data-tab=webhooks]');
    await page.fill('#webhook-url', 'http://127.0.0.1:9/portal-hook');
    await page.click('#webhook-form button[type=submit]');
    await waitForText('#notice', 'Webhook URL saved.');
    const firstSecret = await text('#new-secret-value');
    expect(firstSecret).toMatch(/^whsec_/);
    expect((await service.partner('GET', '/settings', key)).body).toMatchObject({
      webhook_url: 'http://127.0.0.1:9/portal-hook',
      webhook_secret_set: true,
    });

    await page.click('#new-secret-done');
    expect(await page.locator('#new-secret').isHidden()).toBe(true);
    expect(await page.content()).not.toContain(firstSecret);

    await page.click('#rotate-secret');
    await waitForText('#notice', 'Webhook secret rotated');
    const secondSecret = await text('#new-secret-value');
    expect(secondSecret).toMatch(/^whsec_/);
    expect(secondSecret).not.toBe(firstSecret);
    await waitForText('#secret-state', 'The previous secret also signs until');

    // Deliveries of the outcomes now go to the (closed) port and show their failed attempt.
    const placed = await topup('0001', 'portal-hook-0001', 'hooked');
    await service.settle();
    await page.click('#refresh');
    await page.locator(`#deliveries tr:has-text("${placed.body.order_id}")`).waitFor();
    const row = await page.locator(`#deliveries tr:has-text("${placed.body.order_id}")`).innerText();
    expect(row).toContain('transaction.succeeded');
    expect(row).toContain('RETRYING');
    expect(row).toContain('connection_failed');

    await page.selectOption('#delivery-filters select[name=state]', 'FAILED');
    await page.click('#delivery-filters button[type=submit]');
    await waitForText('#deliveries-empty', 'No FAILED deliveries.');
    expect(await page.locator('#deliveries tr').count()).toBe(0);
  });

  it('saves access settings, and shows a refusal without changing anything', async () => {
    await signIn();
    await page.click('[data-tab=access]');
    await waitForText('#rate-limit-ceiling', '10000');
    await page.fill('#rate-limit', '120');
    await page.fill('#ip-allowlist', '127.0.0.1\n::1\n203.0.113.0/24');
    await page.click('#access-form button[type=submit]');
    await waitForText('#notice', 'Access settings saved.');
    expect((await service.partner('GET', '/settings', key)).body).toMatchObject({
      rate_limit_per_minute: 120,
      ip_allowlist: ['127.0.0.1/32', '::1/128', '203.0.113.0/24'],
    });

    await page.fill('#ip-allowlist', 'not-an-address');
    await page.click('#access-form button[type=submit]');
    await waitForText('#failure', 'validation_failed');
    expect((await service.partner('GET', '/settings', key)).body).toMatchObject({
      rate_limit_per_minute: 120,
      ip_allowlist: ['127.0.0.1/32', '::1/128', '203.0.113.0/24'],
    });

    await page.fill('#ip-allowlist', '');
    await page.fill('#rate-limit', '600');
    await page.click('#access-form button[type=submit]');
    await waitForText('#notice', 'Access settings saved.');
    expect((await service.partner('GET', '/settings', key)).body).toMatchObject({
      rate_limit_per_minute: 600,
      ip_allowlist: [],
    });
  });

  it('shows the live wallet, apart from the sandbox one, for a live key', async () => {
    const approved = await service.admin('POST', `/partners/${partnerId}/kyc`, { status: 'approved' });
    expect(approved.status).toBe(200);
    await signIn(approved.body.live_api_key);
    await waitForText('#environment', 'LIVE');
    expect(await text('#balance')).toBe('0.00 INR');
    expect(await text('#environment')).toBe('LIVE: real money');
    await page.locator('#transactions-empty').waitFor();
    expect(await page.locator('#transactions tr').count()).toBe(0);
  });

  it('shows nothing of a partner until both header reads are in: a refused one keeps the portal and its forms closed, and empty', async () => {
    const limited = await service.createPartner('IN', 'Limited Partner');
    await configure(limited.partnerId, { webhook_url: 'http://127.0.0.1:9/kept', rate_limit: 1 });
    // One request a minute, and the harder order of the two header reads: the balance read leaves only once the
    // settings have answered (and filled the page), so it is the one refused; the sign-in says so, and keeps nothing.
    const settingsAnswered = page.waitForResponse('**/v1/partner/settings');
    await page.route('**/v1/partner/balance', async (route) => {
      await settingsAnswered;
      await route.continue();
    });
    await signIn(limited.sandboxKey);
    await waitForText('#sign-in-error', 'Rate limit reached for this key');
    expect((await settingsAnswered).status()).toBe(200);
    expect(await page.locator('#portal').isHidden()).toBe(true);
    expect(await text('#partner-id')).toBe('');
    expect(await page.locator('#webhook-url').isDisabled()).toBe(true);
    expect(await page.locator('#webhook-form button[type=submit]').isDisabled()).toBe(true);
    expect(await page.locator('#access-form button[type=submit]').isDisabled()).toBe(true);
    // The refused sign-in changed nothing (read by the back office: the partner's key has spent its minute).
    expect(
      (await service.admin('GET', `/partners/${limited.partnerId}/settings?environment=sandbox`)).body.webhook_url,
    ).toBe('http://127.0.0.1:9/kept');
  });

  it('asks before removing the webhook, and keeps it when the partner says no', async () => {
    await signIn();
    await page.click('[data-tab=webhooks]');
    await page.locator('#webhook-url:enabled').waitFor();
    const saved = await page.inputValue('#webhook-url');
    expect(saved).not.toBe('');
    acceptDialogs = false;
    await page.fill('#webhook-url', '');
    const asked = page.waitForEvent('dialog');
    await page.click('#webhook-form button[type=submit]');
    expect((await asked).message()).toContain('Remove the webhook?');
    expect((await service.partner('GET', '/settings', key)).body.webhook_url).toBe(saved);
    expect(await page.locator('#notice').isHidden()).toBe(true);
  });

  it('shows a refusal for an address outside the allowlist at sign-in', async () => {
    const fenced = await service.createPartner('IN', 'Fenced Partner');
    await configure(fenced.partnerId, { ip_allowlist: ['203.0.113.0/24'] });
    await signIn(fenced.sandboxKey);
    await waitForText('#sign-in-error', 'ip_not_allowed');
    expect(await page.locator('#portal').isHidden()).toBe(true);
  });

  it("drops a reply that arrives after sign-out: the next partner never sees the last one's new secret or data", async () => {
    const next = await service.createPartner('IN', 'Next Partner');
    await configure(next.partnerId, { rate_limit: 10_000 });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/v1/partner/settings/webhook-secret/rotate', async (route) => {
      await held;
      await route.continue();
    });
    await signIn();
    await page.click('[data-tab=webhooks]');
    await page.locator('#webhook-url:enabled').waitFor();
    await page.click('#rotate-secret');
    await page.click('#sign-out');
    await signIn(next.sandboxKey);
    await waitForText('#partner-id', next.partnerId);
    const rotated = page.waitForResponse('**/v1/partner/settings/webhook-secret/rotate');
    release();
    await rotated;
    // One more round trip for the next partner: by its end the late reply has been handled.
    const refreshed = page.waitForResponse('**/v1/partner/webhook-deliveries');
    await page.click('#refresh');
    await refreshed;
    await page.click('[data-tab=webhooks]');
    expect(await page.locator('#new-secret').isHidden()).toBe(true);
    expect(await page.locator('#new-secret-value').textContent()).toBe('');
    expect(await page.locator('#notice').isHidden()).toBe(true);
    expect(await text('#secret-state')).toBe('No webhook secret yet: saving a URL creates one.');
    expect(await text('#partner-id')).toBe(next.partnerId);
  });

  it('keeps the key out of storage and cookies, and signs out when the key is regenerated', async () => {
    await signIn();
    await waitForText('#balance', 'INR');
    const kept = await page.evaluate(() => {
      const browserGlobals = globalThis as unknown as {
        localStorage: Storage;
        sessionStorage: Storage;
        document: { cookie: string };
      };
      return {
        local: browserGlobals.localStorage.length,
        session: browserGlobals.sessionStorage.length,
        cookies: browserGlobals.document.cookie,
      };
    });
    expect(kept).toEqual({ local: 0, session: 0, cookies: '' });
    expect(await page.inputValue('#api-key')).toBe('');

    const regenerated = await service.admin('POST', `/partners/${partnerId}/keys/regenerate`, {
      environment: 'sandbox',
    });
    expect(regenerated.status).toBe(200);
    await page.click('#refresh');
    await waitForText('#sign-in-error', 'invalid_api_key');
    expect(await page.locator('#portal').isHidden()).toBe(true);
    expect(await page.locator('#balance').textContent()).toBe('');
    key = regenerated.body.api_key;
    await signIn();
    await waitForText('#balance', 'INR');
  });
});
