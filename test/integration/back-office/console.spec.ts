import { expectServedWithPageHeaders } from '../../support/page-headers';
import { readFileSync } from 'node:fs';
import { Browser, Page, Request } from 'playwright-core';
import { browserAvailable, launchBrowser } from '../../support/browser';
import { forgeEvent, lastRecordedBalance, sandboxWallet } from '../../support/ledger';
import { Money } from '../../../src/domain/money/money';
import { SANDBOX_PHONES, TEST_ADMIN_TOKEN, TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';
import { waitForAsync } from '../../support/wait-for';
import { OperatorRole } from '../../../src/domain/back-office/operator-role';

interface Storage {
  length: number;
}

const STUCK_AFTER_MS = 60_000;
const OPERATOR = 'ops.console';

const describeInBrowser = browserAvailable('the operator console tests') ? describe : describe.skip;

describe('the operator console page', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await TestService.start({ store: 'postgres' });
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await service.close();
  });

  it("is served without a token, with exactly the portal's security headers: its own script only, this service only, never framed, never stored", async () => {
    await expectServedWithPageHeaders(service.url, [
      ['/console', 'text/html; charset=utf-8'],
      ['/console/', 'text/html; charset=utf-8'],
      ...[
        'console',
        'api',
        'page',
        'overview',
        'partners',
        'orders',
        'webhooks',
        'finance',
        'reconciliation',
        'engineering',
        'operators',
      ].map((module): [string, string] => [`/console/${module}.js`, 'application/javascript; charset=utf-8']),
      ['/console/console.css', 'text/css; charset=utf-8'],
      ['/console/favicon.svg', 'image/svg+xml'],
    ]);
    const html = await (await fetch(`${service.url}/console`)).text();
    expect(html).toContain('<script type="module" src="/console/console.js"></script>');
    // No inline script and no inline style: the policy above would refuse them anyway.
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toMatch(/<style|style="|\son[a-z]+="/);
    expect(await (await fetch(`${service.url}/console/api.js`)).text()).toContain("const API = '/v1/admin'");
  });

  it('serves nothing else under /console', async () => {
    const answer = await fetch(`${service.url}/console/../src/main.ts`);
    expect(answer.status).toBe(404);
    expect(await answer.json()).toMatchObject({ error: 'not_found' });
    expect((await fetch(`${service.url}/console/console-page.js`)).status).toBe(404);
    expect((await fetch(`${service.url}/console/index.html`)).status).toBe(404);
  });
});

describeInBrowser('the operator console in Chromium, against a real service', () => {
  let service: TestService;
  let browser: Browser;
  let page: Page;
  let acceptDialogs = true;
  const dialogs: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    // One after the other, not side by side: if one fails to start, the other is still assigned and closed by afterAll
    // (a browser launched beside a failed start was never closed, and kept the jest worker from exiting).
    browser = await launchBrowser();
    service = await TestService.start({
      store: 'postgres',
      env: { STUCK_ORDER_AFTER_SECONDS: String(STUCK_AFTER_MS / 1000), WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' },
    });
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });
  beforeEach(async () => {
    page = await browser.newPage({ acceptDownloads: true });
    page.setDefaultTimeout(15_000); // a step that never happens fails with its own name, inside the test's time
    acceptDialogs = true;
    dialogs.length = 0;
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void (acceptDialogs ? dialog.accept() : dialog.dismiss());
    });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${service.url}/console`);
  });
  afterEach(async () => {
    await page.close();
    expect(pageErrors).toEqual([]);
  });

  const text = (selector: string) => page.locator(selector).first().innerText();
  const waitForText = (selector: string, expected: string) =>
    page.locator(selector).filter({ hasText: expected }).first().waitFor();
  const signIn = async (token: string) => {
    await page.fill('#operator-token', token);
    await page.click('#sign-in-form button[type=submit]');
  };
  /** Signs in with the token of the operator named (created with the break-glass token at its first use); returns the token. */
  let signedInRole: OperatorRole = 'operator';
  const signedIn = async (operator = OPERATOR, role: OperatorRole = 'operator') => {
    signedInRole = role;
    const token = await service.operatorToken(operator, role);
    await signIn(token);
    await waitForText('#operator-name', operator);
    return token;
  };
  const tab = async (name: string) => {
    await page.click(`[data-tab=${name}]`);
    await page.locator(`#tab-${name}`).waitFor();
  };
  /**
   * Creates a partner through the console and returns its id (from the detail panel) and its sandbox key: shown once to
   * an owner; anyone else is told that an owner issues it, which the break-glass token then does.
   */
  const createPartner = async (name: string, corridor = 'IN') => {
    await tab('partners'); // the console opens on the overview
    // The list the tab opened with, drawn before the creation redraws it: a late answer would draw it without the new partner.
    await page.locator('#partners tr').or(page.locator('#partners-empty')).first().waitFor();
    await page.fill('#new-partner-name', name);
    await page.selectOption('#new-partner-corridor', corridor);
    await page.click('#create-partner button[type=submit]');
    await waitForText('#partner-name', name);
    const partnerId = await text('#partner-id');
    let sandboxKey: string;
    if (signedInRole === 'owner') {
      await waitForText('#secret-title', `Sandbox API key of ${name}.`);
      sandboxKey = await text('#secret-value');
      await page.click('#secret-done');
    } else {
      await waitForText('#notice', 'an owner issues its sandbox key');
      expect(await page.locator('#secret').isHidden()).toBe(true);
      const issued = await service.admin('POST', `/partners/${partnerId}/keys/regenerate`, { environment: 'sandbox' });
      sandboxKey = issued.body.api_key as string;
    }
    await service.settle(); // the sandbox grant
    return { partnerId, sandboxKey };
  };
  const balanceOf = async (partnerId: string, environment: 'sandbox' | 'live') =>
    (await service.admin('GET', `/partners/${partnerId}`)).body.balances[environment]?.available;
  const creditsOf = async (partnerId: string, environment: 'sandbox' | 'live') => {
    const audit = await service.admin('GET', `/audit/wallets/${partnerId}/${environment}?format=jsonl`);
    return audit.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.event_type === 'WalletCredited');
  };

  it("refuses a wrong, an expired or a revoked token with the service's answer", async () => {
    await signIn('not-the-operator-token-at-all');
    await waitForText('#sign-in-error', 'invalid_admin_token');
    const revoked = await service.createOperator('ops.gone', 'operator');
    expect((await service.admin('POST', `/operators/${revoked.operatorId}/revoke`, { reason: 'left' })).status).toBe(
      200,
    );
    await signIn(revoked.token);
    await waitForText('#sign-in-error', 'the operator token has been revoked');
    expect(await page.locator('#console').isHidden()).toBe(true);
    expect(await page.locator('#sign-in input').count()).toBe(1); // the token only: no name to type
  });

  it("shows the operator's name and role, and offers a finance role no action it may not take; the service refuses them anyway", async () => {
    const { partnerId, sandboxKey } = await service.createPartner('IN', 'Finance View Partner');
    const placed = await service.topup(
      sandboxKey,
      { operator_id: 101, phone: SANDBOX_PHONES.IN('0005'), amount: 15 },
      'console-finance-held-1',
    );
    await service.settle();
    await service.advance(STUCK_AFTER_MS);
    await signedIn('fin.console', 'finance');
    expect(await text('#operator-role')).toBe('finance');

    await tab('partners');
    expect(await page.locator('#create-partner').isVisible()).toBe(false);
    await page.locator(`#partners tr[data-partner-id="${partnerId}"]`).click();
    await waitForText('#partner-name', 'Finance View Partner');
    await waitForText('#settings-state', 'No webhook secret yet');
    for (const hidden of ['#kyc-approve', '#kyc-suspend', '#credit-form', '#key-form', '#rotate-webhook-secret'])
      expect({ hidden, visible: await page.locator(hidden).isVisible() }).toEqual({ hidden, visible: false });
    expect(await page.locator('#settings-webhook').isDisabled()).toBe(true); // shown, read-only
    expect(await page.locator('#partner-statement').isVisible()).toBe(true);

    await tab('orders');
    await page.click(`#held-orders tr[data-order-id="${placed.body.order_id}"]`);
    await waitForText('#order-timeline', 'TransactionDisputed');
    expect(await page.locator('#resolve-form').isVisible()).toBe(false);
    await tab('engineering');
    await page.locator('#projections tr[data-projection=orders]').waitFor();
    expect(await page.locator('#projections button').count()).toBeGreaterThan(0);
    expect(await page.locator('#projections button').first().isVisible()).toBe(false);
    await tab('finance');
    await page.click('#verify');
    await waitForText('#verify-result', 'Every money invariant holds');

    // The page only reflects the role: the same call sent anyway is refused by the service, and nothing moves.
    // (A string, so that the test's compiler leaves the page's dynamic import alone.)
    const refusal = await page.evaluate(`(async () => {
      const { api } = await import('/console/api.js');
      try {
        await api('POST', '/partners/${partnerId}/wallet-credits', {
          body: { environment: 'sandbox', amount: '10.00', reference: 'sent anyway' },
        });
        return 'sent';
      } catch (error) {
        return error.message;
      }
    })()`);
    expect(refusal).toBe(
      'role_forbidden: fin.console has the role finance, which may not credit wallets or resolve held orders',
    );
    expect(await balanceOf(partnerId, 'sandbox')).toBe('985.00');
  });

  it('signs in with the break-glass token as its owner, recorded as break-glass', async () => {
    await signIn(TEST_ADMIN_TOKEN);
    await waitForText('#operator-name', 'break-glass');
    expect(await text('#operator-role')).toBe('owner (break-glass token)');
    await tab('partners');
    expect(await page.locator('#create-partner').isVisible()).toBe(true);
  });

  it('an owner creates a partner, sees each key once, approves KYC with the live key, regenerates a key and saves settings: every key works', async () => {
    await signedIn('owner.keys', 'owner');
    const { partnerId, sandboxKey } = await createPartner('Console Partner <b>bold</b>');
    expect(sandboxKey).toMatch(/^svc_test_/);
    expect(await page.content()).not.toContain(sandboxKey);
    expect((await service.partner('GET', '/balance', sandboxKey)).status).toBe(200);
    await page.locator(`#partners tr[data-partner-id="${partnerId}"]`).waitFor();
    expect(await page.locator('#partners b').count()).toBe(0);

    await page.click('#kyc-approve');
    await waitForText('#secret-title', 'Live API key of Console Partner <b>bold</b>.');
    const liveKey = await text('#secret-value');
    expect(liveKey).toMatch(/^svc_live_/);
    expect(dialogs.at(-1)).toContain('Approve KYC of Console Partner');
    await waitForText('#partner-fields', 'approved');
    expect((await service.partner('GET', '/balance', liveKey)).body).toMatchObject({
      environment: 'live',
      available: '0.00',
    });
    await page.click('#secret-done');
    expect(await page.locator('#kyc-approve').isDisabled()).toBe(true);

    await page.selectOption('#key-form select[name=environment]', 'sandbox');
    await page.click('#key-form button[type=submit]');
    await waitForText('#secret-title', 'New sandbox API key');
    const newKey = await text('#secret-value');
    expect(newKey).not.toBe(sandboxKey);
    expect((await service.partner('GET', '/balance', sandboxKey)).status).toBe(401);
    expect((await service.partner('GET', '/balance', newKey)).status).toBe(200);
    await page.click('#secret-done');

    await page.fill('#settings-webhook', 'http://127.0.0.1:9/console-hook');
    await page.fill('#settings-allowlist', '127.0.0.1\n::1');
    await page.fill('#settings-rate', '240');
    await page.click('#settings-form button[type=submit]');
    await waitForText('#notice', 'Settings saved.');
    await waitForText('#secret-title', 'Webhook secret of');
    expect(await text('#secret-value')).toMatch(/^whsec_/);
    expect((await service.admin('GET', `/partners/${partnerId}/settings?environment=sandbox`)).body).toMatchObject({
      webhook_url: 'http://127.0.0.1:9/console-hook',
      ip_allowlist: ['127.0.0.1/32', '::1/128'],
      rate_limit_per_minute: 240,
      webhook_secret_set: true,
    });
    // The live settings are apart, and the form shows them when chosen.
    await page.selectOption('#settings-environment', 'live');
    await page.locator('#settings-fieldset:enabled').waitFor();
    await waitForText('#settings-state', 'No webhook secret yet');
    expect(await page.inputValue('#settings-webhook')).toBe('');
  });

  it("an operator approves KYC but sees no live key, no key regeneration and no secret rotation; the partner claims its live key, and the operator's rate limit is its ceiling", async () => {
    await signedIn();
    const { partnerId, sandboxKey } = await createPartner('Claiming Partner');
    for (const hidden of ['#key-form', '#rotate-webhook-secret'])
      expect({ hidden, visible: await page.locator(hidden).isVisible() }).toEqual({ hidden, visible: false });
    await waitForText('#settings-state', 'the partner sets its first webhook URL');
    await page.click('#kyc-approve');
    expect(dialogs.at(-1)).toContain('they claim their live API key with their sandbox key');
    await waitForText('#partner-fields', 'approved');
    await waitForText('#notice', 'KYC of Claiming Partner approved.');
    expect(await page.locator('#secret').isHidden()).toBe(true);

    const claimed = await service.partner('POST', '/live-key', sandboxKey);
    expect(claimed.status).toBe(201);
    expect((await service.partner('GET', '/balance', claimed.body.api_key)).body).toMatchObject({
      environment: 'live',
    });

    // A first webhook URL would come with a secret: the operator may not save one.
    await page.fill('#settings-webhook', 'http://127.0.0.1:9/operator-hook');
    await page.click('#settings-form button[type=submit]');
    await waitForText('#failure', 'role_forbidden');
    await page.fill('#settings-webhook', '');
    await page.fill('#settings-rate', '20');
    await page.click('#settings-form button[type=submit]');
    await waitForText('#notice', 'Settings saved.');
    await waitForText('#settings-partner-rate', "The partner's own limit: 20 a minute.");
    const raised = await service.partner('PATCH', '/settings', sandboxKey, { rate_limit_per_minute: 21 });
    expect(raised.status).toBe(400);
    expect(raised.body).toMatchObject({ error: 'validation_failed' });
    expect(raised.body.detail).toContain('at most 20');
    expect((await service.admin('GET', `/partners/${partnerId}/settings?environment=sandbox`)).body).toMatchObject({
      rate_limit_per_minute: 20,
      rate_limit_ceiling_per_minute: 20,
      webhook_secret_set: false,
    });
  });

  it("credits a wallet after a review step: a double click and a confirmation after a lost answer credit once, under the operator's name", async () => {
    await signedIn();
    const { partnerId } = await createPartner('Credit Partner');
    const sent: Request[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/wallet-credits')) sent.push(request);
    });

    await page.fill('#credit-form input[name=amount]', '250.50');
    await page.fill('#credit-form input[name=reference]', 'bank transfer 0001');
    await page.click('#credit-form button[type=submit]');
    await waitForText('#credit-summary', 'Credit 250.50 INR to the sandbox wallet of Credit Partner');
    expect(await balanceOf(partnerId, 'sandbox')).toBe('1000.00');
    await page.dblclick('#credit-go');
    await waitForText('#notice', 'Credited 250.50 INR');
    expect(await balanceOf(partnerId, 'sandbox')).toBe('1250.50');
    await waitForText('#partner-fields', '1250.50 INR');

    // The answer is lost on the way back: the credit happened, the page shows a failure, and confirming again replays it.
    let loseAnswer = true;
    await page.route('**/wallet-credits', async (route) => {
      if (!loseAnswer) return route.continue();
      loseAnswer = false;
      await route.fetch();
      await route.abort('connectionreset');
    });
    await page.fill('#credit-form input[name=amount]', '100');
    await page.fill('#credit-form input[name=reference]', 'bank transfer 0002');
    await page.click('#credit-form button[type=submit]');
    await page.click('#credit-go');
    await waitForText('#failure', 'network_error');
    expect(await page.locator('#credit-confirm').isVisible()).toBe(true);
    await page.click('#credit-go');
    await waitForText('#notice', 'Credited 100.00 INR');
    expect(await balanceOf(partnerId, 'sandbox')).toBe('1350.50');

    const credits = (await creditsOf(partnerId, 'sandbox')).filter((entry) => entry.actor_type === 'operator');
    expect(credits.map((entry) => [entry.amount, entry.reference, entry.actor_id])).toEqual([
      ['250.50', 'bank transfer 0001', OPERATOR],
      ['100.00', 'bank transfer 0002', OPERATOR],
    ]);
    const keys = sent.map((request) => request.headers()['idempotency-key']);
    expect(keys.length).toBeGreaterThanOrEqual(3);
    expect(keys.every((key) => /^console-[0-9a-f]{32}$/.test(key))).toBe(true);
    expect(new Set(keys).size).toBe(2); // one key per confirmed credit, the same on every send of it
  });

  it('cancelling a reviewed credit sends nothing, and a malformed amount never reaches the service', async () => {
    await signedIn();
    const { partnerId } = await createPartner('Cautious Partner');
    await page.fill('#credit-form input[name=amount]', '12,50');
    await page.fill('#credit-form input[name=reference]', 'typo');
    await page.click('#credit-form button[type=submit]');
    await waitForText('#failure', 'amount: a positive decimal');
    expect(await page.locator('#credit-confirm').isHidden()).toBe(true);
    await page.fill('#credit-form input[name=amount]', '12.50');
    await page.click('#credit-form button[type=submit]');
    await page.click('#credit-cancel');
    expect(await page.locator('#credit-confirm').isHidden()).toBe(true);
    expect(await creditsOf(partnerId, 'sandbox')).toHaveLength(1); // the sandbox grant only
  });

  it('finds a held sandbox order, shows its timeline, resolves it with a reason after a confirmation, and the statement shows the refund', async () => {
    await signedIn();
    const { partnerId, sandboxKey } = await createPartner('Held Partner');
    const placed = await service.topup(
      sandboxKey,
      { operator_id: 101, phone: SANDBOX_PHONES.IN('0005'), amount: 40, reference: 'held-one' },
      'console-held-1',
    );
    expect(placed.status).toBe(200);
    const orderId: string = placed.body.order_id;
    await service.settle();
    await service.advance(STUCK_AFTER_MS);
    // The day the order was debited (the clock may have passed midnight since).
    const today = ((await service.admin('GET', `/orders/${orderId}`)).body.created_at as string).slice(0, 10);

    // The day's statement before: one debit, no refund.
    await page.click('#partner-statement');
    await page.fill('#finance-form input[name=date]', today);
    await page.click('#finance-form button[type=submit]');
    await waitForText('#statement-rows', 'Debits (1)');
    expect(await text('#statement-rows')).toContain('Refunds (0)');
    expect(await text('#statement-rows')).toMatch(/Closing balance\s+960\.00/);

    await tab('orders');
    await page.locator(`#held-orders tr[data-order-id="${orderId}"]`).waitFor();
    expect(await page.locator(`#held-orders tr[data-order-id="${orderId}"]`).innerText()).toContain('DISPUTED');
    // The list the tab opened with (every order) is drawn before the search is sent: a late answer would redraw it.
    await page.locator(`#orders tr[data-order-id="${orderId}"]`).waitFor();
    // Search by phone, as typed by a person, finds it too.
    await page.fill('#order-filters input[name=phone]', '+91 98765 40005');
    await page.fill('#order-filters input[name=partner_id]', partnerId);
    await page.click('#order-filters button[type=submit]');
    // The list before the search may show this order too: wait for the search's own answer.
    await page.waitForFunction("document.querySelectorAll('#orders tr').length === 1");
    await page.locator(`#orders tr[data-order-id="${orderId}"]`).waitFor();
    expect(await page.locator('#orders tr').count()).toBe(1);

    await page.click(`#held-orders tr[data-order-id="${orderId}"]`);
    await waitForText('#order-id', orderId);
    await waitForText('#order-timeline', 'TransactionDisputed');
    expect(await text('#order-timeline')).toContain('WalletDebited');
    expect(await page.locator('#resolve-form').isVisible()).toBe(true);

    // A reason is mandatory, and the confirmation says what will happen.
    await page.check('#resolve-form input[value=failed]');
    await page.click('#resolve-form button[type=submit]');
    expect(await page.locator('#resolve-confirm').isHidden()).toBe(true);
    await page.fill('#resolve-reason', 'operator confirmed the recharge never arrived');
    await page.click('#resolve-form button[type=submit]');
    await waitForText('#resolve-summary', `Resolve ${orderId} as FAILED: 40.00 INR is refunded to ${partnerId}`);
    await page.dblclick('#resolve-go');
    await waitForText('#notice', `Order ${orderId} resolved as FAILED.`);
    await waitForText('#order-status', 'FAILED');
    const resolvedRow = page.locator('#order-timeline tr').filter({ hasText: 'TransactionFailed' });
    expect(await resolvedRow.innerText()).toContain(`operator ${OPERATOR}`);
    expect(await resolvedRow.innerText()).toContain('operator confirmed the recharge never arrived');
    await page.locator(`#held-orders tr[data-order-id="${orderId}"]`).waitFor({ state: 'detached' });

    // The refund follows; the timeline and the day's statement show it.
    await service.settle();
    await page.click(`#orders tr[data-order-id="${orderId}"]`);
    await waitForText('#order-timeline', 'WalletRefunded');
    await tab('finance');
    await page.click('#finance-form button[type=submit]');
    await waitForText('#statement-rows', 'Refunds (1)');
    expect(await text('#statement-rows')).toMatch(/Closing balance\s+1000\.00/);
    expect(await text('#statement-verdict')).toContain('Adds up.');
  });

  it('lists webhook deliveries with every attempt, and re-sends one', async () => {
    await signedIn();
    const { partnerId, sandboxKey } = await createPartner('Hooked Partner');
    await service.admin('PATCH', `/partners/${partnerId}/settings`, {
      environment: 'sandbox',
      webhook_url: 'http://127.0.0.1:9/closed',
    });
    const placed = await service.topup(
      sandboxKey,
      { operator_id: 101, phone: SANDBOX_PHONES.IN('0001'), amount: 10 },
      'console-hook-1',
    );
    await service.settle();
    await tab('webhooks');
    await page.fill('#delivery-filters input[name=partner_id]', partnerId);
    await page.click('#delivery-filters button[type=submit]');
    const row = page.locator('#deliveries tr').filter({ hasText: placed.body.order_id });
    await row.waitFor();
    expect(await row.innerText()).toContain('transaction.succeeded');
    expect(await row.innerText()).toContain('RETRYING');
    expect(await row.innerText()).toContain('connection_failed');
    expect(await row.locator('ol.attempts li').count()).toBe(1);

    await row.locator('button').click();
    await waitForText('#notice', 'scheduled again');
    expect(dialogs.at(-1)).toContain('http://127.0.0.1:9/closed');
    await service.settle();
    await page.click('#delivery-filters button[type=submit]');
    await page
      .locator('#deliveries tr')
      .filter({ hasText: placed.body.order_id })
      .locator('ol.attempts li')
      .nth(1)
      .waitFor();
  });

  it('shows the period report with its chart inside the console, exports CSV and JSONL with the actor, and runs verify', async () => {
    await signedIn();
    const { partnerId } = await createPartner('Report Partner');
    await service.adminAs(
      await service.operatorToken('ops.ravi', 'operator'),
      'POST',
      `/partners/${partnerId}/wallet-credits`,
      {
        environment: 'sandbox',
        amount: '75.25',
        reference: 'report credit',
      },
    );
    const today = service.clock.now().toISOString().slice(0, 10);
    await page.click('#partner-statement');
    await page.fill('#report-form input[name=from]', today);
    await page.fill('#report-form input[name=to]', today);
    await page.click('#report-form button[type=submit]');
    await page.locator('#report #chart').waitFor();
    expect(await text('#report #totals')).toMatch(/Credits \(2\)\s+1075\.25/);
    expect(await text('#report #verdict')).toContain('Every day adds up');
    expect(await page.locator('#report script').count()).toBe(0);

    const csvDownload = page.waitForEvent('download');
    await page.click('#export-csv');
    const csv = readFileSync(await (await csvDownload).path(), 'utf8');
    expect((await csvDownload).suggestedFilename()).toBe(`wallet-${partnerId}-sandbox-${today}-${today}.csv`);
    expect(csv.split('\r\n')[0]).toContain('actor_type,actor_id');
    expect(csv).toContain('ops.ravi');
    const jsonlDownload = page.waitForEvent('download');
    await page.click('#export-jsonl');
    const lines = readFileSync(await (await jsonlDownload).path(), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.find((line) => line.reference === 'report credit')).toMatchObject({
      amount: '75.25',
      actor_type: 'operator',
      actor_id: 'ops.ravi',
    });

    await page.click('#verify');
    await waitForText('#verify-result', 'Every money invariant holds (checked ');
    expect(await text('#verify-result')).toMatch(/checked \d+ events, \d+ wallets, \d+ orders/);
  });

  it('shows projections with version, checkpoint and lag, follows a rebuild to its end, and shows the job backlog', async () => {
    await signedIn('eng.console', 'engineer');
    const { sandboxKey } = await service.createPartner('IN', 'Engineering Partner');
    await service.topup(
      sandboxKey,
      { operator_id: 101, phone: SANDBOX_PHONES.IN('0005'), amount: 10 },
      'console-engineering-1',
    );
    await service.settle();
    await tab('engineering');
    const orders = page.locator('#projections tr[data-projection=orders]');
    await orders.waitFor();
    const before = (await service.admin('GET', '/projections')).body.projections.find(
      (projection: { name: string }) => projection.name === 'orders',
    );
    expect(await orders.innerText()).toContain(String(before.version));
    await waitForText('#jobs', 'hold-stuck-order');

    await orders.locator('button').click();
    await waitForText('#rebuild-state', 'Completed');
    const after = (await service.admin('GET', '/projections')).body.projections.find(
      (projection: { name: string }) => projection.name === 'orders',
    );
    expect(after.version).toBe(before.version + 1);
    expect(await text('#rebuild-state')).toContain(`version ${before.version} → ${after.version}`);
    await page
      .locator('#projections tr[data-projection=orders]')
      .filter({ hasText: String(after.version) })
      .waitFor();
    expect(dialogs.at(-1)).toContain('Rebuild orders?');
  });

  it('lets an owner create and revoke operator tokens with their last use, and shows any role what an operator did, re-sends and rebuilds included', async () => {
    await signedIn('owner.console', 'owner');
    await tab('operators');
    // The list the tab opened with, drawn before the creation redraws it: a late answer would draw it without the newcomer.
    await page.locator('#operators tr').filter({ hasText: 'owner.console' }).waitFor();
    await page.fill('#operator-create input[name=name]', 'ops.newcomer');
    await page.selectOption('#operator-create select[name=role]', 'finance');
    await page.fill('#operator-create input[name=expires_in_days]', '30');
    await page.click('#operator-create button[type=submit]');
    await waitForText('#secret-title', 'Operator token of ops.newcomer (finance');
    const token = await text('#secret-value');
    expect(token).toMatch(/^op_[A-Za-z0-9_-]{43}$/);
    await page.click('#secret-done');
    const row = page.locator('#operators tr').filter({ hasText: 'ops.newcomer' });
    await row.waitFor();
    expect(await row.locator('td').allInnerTexts()).toEqual([
      'ops.newcomer',
      'finance',
      'active',
      expect.any(String),
      'owner.console',
      expect.any(String),
      'never',
      'Revoke',
    ]);

    // The new token works, and its use shows once written (off the request path).
    expect((await service.adminAs(token, 'GET', '/partners')).status).toBe(200);
    const usedAt = service.clock
      .now()
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$/, '');
    // Refreshed until the list shows it, one answer at a time.
    await waitForAsync(
      async () => {
        const listed = page.waitForResponse((response) => response.url().endsWith('/v1/admin/operators'));
        await page.click('#refresh');
        await (await listed).finished();
        return (await row.locator('td.last-used').innerText()) === usedAt;
      },
      { timeoutMs: 10_000, what: 'the last use of the new token shown' },
    );

    // What the engineer did: a rebuild, which is not an event, next to the events of the log.
    const engineer = await service.operatorToken('eng.audited', 'engineer');
    const rebuild = await service.adminAs(engineer, 'POST', '/projections/order-daily-stats/rebuild');
    expect(rebuild.status).toBe(202);
    await page.fill('#operator-audit-form input[name=name]', 'eng.audited');
    await page.click('#operator-audit-form button[type=submit]');
    await waitForText('#operator-audit', 'projection_rebuild_started');
    const entry = page.locator('#operator-audit tr[data-kind="outside the log"]');
    expect(await entry.locator('td').nth(5).innerText()).toBe('order-daily-stats');
    expect(await entry.locator('td').nth(6).innerText()).toContain(rebuild.body.rebuild_id);
    expect(await text('#operator-audit-summary')).toBe(
      'eng.audited: 0 events and 1 action outside the log (the latest 100 of each).',
    );

    // Revoked from the page with a reason: refused from then on.
    await page.evaluate('window.prompt = () => "left the team"');
    await row.locator('button', { hasText: 'Revoke' }).click();
    await waitForText('#notice', 'The token of ops.newcomer is revoked');
    await row.filter({ hasText: 'revoked' }).waitFor();
    expect((await service.adminAs(token, 'GET', '/partners')).status).toBe(401);
    // Clicking a name shows that operator's actions: the owner's own creation and revocation are events.
    await page.locator('#operators button.link', { hasText: /^owner\.console$/ }).click();
    await waitForText('#operator-audit', 'OperatorRevoked');
    expect(await page.locator('#operator-audit tr[data-kind=event]').count()).toBeGreaterThanOrEqual(2);
  });

  it('shows a finance role what an operator did, but neither the tokens nor a way to create one', async () => {
    await signedIn('fin.operators', 'finance');
    await tab('operators');
    expect(await page.locator('#operator-create').isVisible()).toBe(false);
    await page.fill('#operator-audit-form input[name=name]', 'break-glass');
    await page.click('#operator-audit-form button[type=submit]');
    await waitForText('#operator-audit', 'OperatorCreated');
    // Read after the audit's answer, so that a list the tab would have asked for has had its answer too.
    expect(await page.locator('#operators tr').count()).toBe(0);
  });

  it("drops a reply that arrives after sign-out: the next operator never sees the last one's live key or partner", async () => {
    await signedIn('owner.stale', 'owner');
    const { partnerId } = await createPartner('Stale Partner');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/v1/admin/partners/*/kyc', async (route) => {
      await held;
      await route.continue();
    });
    await page.click('#kyc-approve');
    await page.click('#sign-out');
    await signedIn('ops.next');
    const approved = page.waitForResponse('**/v1/admin/partners/*/kyc');
    release();
    expect((await approved).status()).toBe(200);
    // One more round trip for the next operator: by its end the late reply has been handled.
    const refreshed = page.waitForResponse((response) => response.url().includes('/v1/admin/partners?'));
    await page.click('#refresh');
    await refreshed;
    expect(await page.locator('#secret').isHidden()).toBe(true);
    expect(await page.locator('#secret-value').textContent()).toBe('');
    expect(await page.locator('#partner-detail').isHidden()).toBe(true);
    expect(await page.locator('#notice').isHidden()).toBe(true);
    expect(await text('#operator-name')).toBe('ops.next');
    // The approval itself happened.
    expect((await service.admin('GET', `/partners/${partnerId}`)).body.kyc_status).toBe('approved');
  });

  it('keeps the token out of storage and cookies, and signs out when the token is refused', async () => {
    const token = await signedIn();
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
    expect(await page.inputValue('#operator-token')).toBe('');
    expect(await page.content()).not.toContain(token);

    await page.route('**/v1/admin/**', (route) =>
      route.fulfill({
        status: 401,
        contentType: 'application/json',
        body: '{"error":"invalid_admin_token","detail":"the operator token is missing or wrong"}',
      }),
    );
    await page.click('#refresh');
    await waitForText('#sign-in-error', 'invalid_admin_token');
    expect(await page.locator('#console').isHidden()).toBe(true);
    expect(await page.locator('#partners tr').count()).toBe(0);
  });
  // Last: it tampers with the store, and every test after it would see the breach.
  it("shows verify's breaches when the ledger does not add up (a forged second refund)", async () => {
    await signedIn();
    const { partnerId, sandboxKey } = await createPartner('Tampered Partner');
    const failed = await service.topup(
      sandboxKey,
      { operator_id: 101, phone: SANDBOX_PHONES.IN('0002'), amount: 10 },
      'console-tampered-1',
    );
    const orderId: string = failed.body.order_id;
    await service.settle();
    const stream = sandboxWallet(partnerId);
    const balanceAfter = (await lastRecordedBalance(service, stream, 'INR')).plus(Money.parse('10.00', 'INR')!);
    const at = service.clock.now().toISOString();
    await forgeEvent(
      service,
      stream,
      'WalletRefunded',
      {
        orderId,
        amount: '10.00',
        currency: 'INR',
        balanceAfter: balanceAfter.toDecimal(),
        reason: 'forged',
        refundedAt: at,
      },
      {
        partnerId,
        environment: 'sandbox',
        correlationId: orderId,
        causationId: null,
        actor: { type: 'system', id: 'forger' },
        occurredAt: at,
      },
    );
    await tab('finance');
    await page.click('#verify');
    await waitForText('#verify-result', 'breach(es) of the money invariants');
    expect(await page.locator('#verify-result').getAttribute('class')).toBe('error');
    expect(await text('#verify-breaches')).toContain(`order ${orderId} was refunded 2 times`);
  });
});
