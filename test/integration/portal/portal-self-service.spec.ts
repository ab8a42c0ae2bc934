import { randomUUID } from 'node:crypto';
import { Browser, Page } from 'playwright-core';
import { browserAvailable, launchBrowser } from '../../support/browser';
import { RecordingReceiver } from '../../support/recording-receiver';
import { waitForAsync } from '../../support/wait-for';
import { SANDBOX_PHONES, TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

const describeInBrowser = browserAvailable('the partner portal self-service tests') ? describe : describe.skip;

/** The portal's way of showing a time: UTC, without the T, the milliseconds and the Z. */
const shownTime = (iso: string) =>
  iso
    .replace('T', ' ')
    .replace(/\.\d+Z$/, 'Z')
    .replace('Z', '');

describeInBrowser(
  'partner self-service in the portal (Chromium): keys, re-sends, live events, the low-balance notice',
  () => {
    let service: TestService;
    let browser: Browser;
    let receiver: RecordingReceiver;
    let page: Page;
    const dialogs: string[] = [];
    const pageErrors: string[] = [];

    beforeAll(async () => {
      // One after the other, not side by side: if one fails to start, the other is still assigned and closed by afterAll
      // (a browser launched beside a failed start was never closed, and kept the jest worker from exiting).
      browser = await launchBrowser();
      receiver = await RecordingReceiver.start();
      service = await TestService.start({ store: 'postgres', env: { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' } });
    }, SERVICE_START_TIMEOUT_MS);
    afterAll(async () => {
      await browser?.close();
      await receiver?.stop();
      await service?.close();
    });
    beforeEach(async () => {
      page = await browser.newPage();
      page.setDefaultTimeout(15_000);
      dialogs.length = 0;
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.accept();
      });
      page.on('pageerror', (error) => pageErrors.push(error.message));
      await page.goto(`${service.url}/portal`);
    });
    afterEach(async () => {
      await page.close();
      expect(pageErrors).toEqual([]);
    });

    /** A sandbox partner whose key has room for the portal's own requests. */
    const newPartner = async (name: string, settings: Record<string, unknown> = {}) => {
      const partner = await service.createPartner('IN', name);
      const configured = await service.admin('PATCH', `/partners/${partner.partnerId}/settings`, {
        environment: 'sandbox',
        rate_limit: 10_000,
        ...settings,
      });
      expect(configured.status).toBe(200);
      return partner;
    };
    const signIn = async (key: string) => {
      await page.fill('#api-key', key);
      await page.click('#sign-in-form button[type=submit]');
      await page.locator('#balance').filter({ hasText: 'INR' }).waitFor();
    };
    const waitForText = (selector: string, expected: string) =>
      page.locator(selector).filter({ hasText: expected }).first().waitFor();
    const topup = (key: string, suffix: string, amount = 10) =>
      service.topup(key, { operator_id: 101, phone: SANDBOX_PHONES.IN(suffix), amount }, `portal-self-${randomUUID()}`);

    it("claims the first live key once an operator approved KYC, shown once; the list shows the owner's key as the back office's", async () => {
      const { partnerId, sandboxKey } = await newPartner('Claiming Partner');
      const owner = await service.operatorToken('owner.portal', 'owner');
      const byOwner = await service.adminAs(owner, 'POST', `/partners/${partnerId}/keys`, {
        environment: 'sandbox',
        label: 'made for you',
        scope: 'read_only',
        expires_at: '2099-01-31T00:00:00Z',
      });
      expect(byOwner.status).toBe(201);
      await signIn(sandboxKey);
      await page.click('[data-tab=keys]');
      const row = page.locator(`#keys tr[data-key-id="${byOwner.body.key_id}"]`);
      expect(await row.locator('td.created-by').innerText()).toBe('back office: owner.portal');
      expect(await page.locator('#live-key-claim').isVisible()).toBe(true);

      // Before approval the claim is refused with the service's answer.
      await page.click('#claim-live-key');
      await waitForText('#failure', 'invalid_state');
      const operator = await service.operatorToken('ops.portal', 'operator');
      const approved = await service.adminAs(operator, 'POST', `/partners/${partnerId}/kyc`, { status: 'approved' });
      expect(approved.body.live_api_key).toBeUndefined();

      await page.click('#claim-live-key');
      await waitForText('#new-key-title', 'Your live key');
      const liveKey = await page.locator('#new-key-value').innerText();
      expect(liveKey).toMatch(/^svc_live_/);
      expect((await service.partner('GET', '/balance', liveKey)).body).toMatchObject({ environment: 'live' });
      await page.click('#new-key-done');
      expect(await page.content()).not.toContain(liveKey);
      await page.click('#claim-live-key');
      await waitForText('#failure', 'already issued');
    });

    it('creates a restricted key shown once, lists it with its last use, revokes it, and a call with it is refused 401', async () => {
      const { sandboxKey } = await newPartner('Keys Partner');
      await signIn(sandboxKey);
      await page.click('[data-tab=keys]');
      await page.locator('#keys-empty').waitFor();

      await page.fill('#key-label', 'support agent <b>one</b>');
      await page.selectOption('#key-scope', 'transact');
      await page.fill('#key-per-order', '100.00');
      await page.fill('#key-daily', '300');
      await page.fill('#key-expires', '2099-01-31');
      await page.click('#key-form button[type=submit]');
      await waitForText('#new-key-title', 'Restricted key “support agent <b>one</b>” (transact).');
      const restrictedKey = await page.locator('#new-key-value').innerText();
      expect(restrictedKey).toMatch(/^svc_test_[A-Za-z0-9_-]{32}$/);
      await page.click('#new-key-done');
      expect(await page.locator('#new-key').isHidden()).toBe(true);
      expect(await page.content()).not.toContain(restrictedKey);

      const listed = await service.partner('GET', '/keys', sandboxKey);
      const [record] = listed.body.keys;
      expect(record).toMatchObject({
        label: 'support agent <b>one</b>',
        scope: 'transact',
        per_order_max: '100.00',
        daily_max: '300.00',
        expires_at: '2099-01-31T00:00:00.000Z',
        status: 'active',
      });
      const row = page.locator(`#keys tr[data-key-id="${record.key_id}"]`);
      expect(await row.innerText()).toMatch(
        /support agent <b>one<\/b>\s+key_\S+\s+transact\s+per order 100\.00 · 24 h 300\.00\s+2099-01-31 00:00:00\s+active/,
      );
      expect(await row.locator('td.last-used').innerText()).toBe('never');
      expect(await page.locator('#keys b').count()).toBe(0);

      // A call with the new key; the list then shows when it was last used (as the API says).
      expect((await service.partner('GET', '/balance', restrictedKey)).status).toBe(200);
      const lastUse = async () =>
        (await service.partner('GET', '/keys', sandboxKey)).body.keys.find(
          (key: { key_id: string }) => key.key_id === record.key_id,
        ).last_used_at as string | null;
      await waitForAsync(async () => (await lastUse()) !== null);
      const used = (await lastUse()) as string;
      await page.click('[data-tab=keys]');
      await row
        .locator('td.last-used')
        .filter({ hasText: shownTime(used) })
        .waitFor();

      // The key itself cannot manage keys: its portal says so.
      const other = await browser.newPage();
      try {
        await other.goto(`${service.url}/portal`);
        await other.fill('#api-key', restrictedKey);
        await other.click('#sign-in-form button[type=submit]');
        await other.locator('#balance').filter({ hasText: 'INR' }).waitFor();
        await other.click('[data-tab=keys]');
        await other.locator('#keys-managed-elsewhere').waitFor();
        expect(await other.locator('#keys-panel').isHidden()).toBe(true);
      } finally {
        await other.close();
      }

      await row.locator('button', { hasText: 'Revoke' }).click();
      expect(dialogs.at(-1)).toContain(`Revoke “support agent <b>one</b>” (${record.key_id})?`);
      await waitForText('#notice', `Key ${record.key_id} revoked.`);
      await row.locator('td.key-status').filter({ hasText: 'revoked' }).waitFor();
      expect(await row.locator('button').count()).toBe(0);
      // Revocation fails closed: until the read models have it, the partner's keys get 503; then the revoked key 401.
      await service.settle();
      await waitForAsync(async () => (await service.partner('GET', '/balance', restrictedKey)).status !== 503);
      const refused = await service.partner('GET', '/balance', restrictedKey);
      expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 401, error: 'invalid_api_key' });
      expect((await service.partner('GET', '/balance', sandboxKey)).status).toBe(200);
    });

    it('lists webhook deliveries and re-sends one to the URL set since: the receiver gets it and the delivery succeeds', async () => {
      const { sandboxKey } = await newPartner('Re-send Partner', { webhook_url: 'http://127.0.0.1:9/closed' });
      const placed = await topup(sandboxKey, '0001');
      await service.settle();
      await signIn(sandboxKey);
      await page.click('[data-tab=webhooks]');
      const row = page.locator('#deliveries tr').filter({ hasText: placed.body.order_id });
      await row.waitFor();
      expect(await row.innerText()).toMatch(/transaction\.succeeded\s+ord_\S+\s+RETRYING\s+1\s+connection_failed/);

      await page.fill('#webhook-url', receiver.url);
      await page.click('#webhook-form button[type=submit]');
      await waitForText('#notice', 'Webhook URL saved.');
      const before = receiver.received.length;
      await row.locator('button', { hasText: 'Re-send' }).click();
      expect(dialogs.at(-1)).toBe(
        `Send transaction.succeeded of ${placed.body.order_id} again, now, to ${receiver.url}?`,
      );
      await waitForText('#notice', 'will be sent again now (attempt 2)');
      await service.settle();
      await receiver.receivedCount(before + 1);
      expect(JSON.parse(receiver.received[before].rawBody)).toMatchObject({ order_id: placed.body.order_id });

      await page.click('#refresh');
      await row.locator('td.state', { hasText: /^SUCCEEDED$/ }).waitFor();
      expect(await row.innerText()).toMatch(/SUCCEEDED\s+2\s+HTTP 200 in \d+ ms/);
    });

    it('shows the latest events at sign-in, and a topup that settles appears in the list as it happens', async () => {
      const { sandboxKey } = await newPartner('Live Events Partner');
      const earlier = await topup(sandboxKey, '0002');
      await service.settle();
      await signIn(sandboxKey);
      await page.click('[data-tab=events]');
      await waitForText('#events-status', 'Live');
      const earlierRow = page.locator('#events tr').filter({ hasText: earlier.body.order_id });
      await earlierRow.waitFor();
      expect(await earlierRow.innerText()).toMatch(/transaction\.failed\s+ord_\S+\s+10\.0000 INR refunded/);

      // The earlier order's refund has the header's balance read again, a few seconds after sign-in: that read is
      // the header's, not the list's.
      const requested: string[] = [];
      page.on('request', (request) => {
        if (!request.url().endsWith('/v1/partner/balance')) requested.push(request.url());
      });
      const live = await topup(sandboxKey, '0001');
      await service.settle();
      const liveRow = page.locator('#events tr').first().filter({ hasText: live.body.order_id });
      await liveRow.waitFor();
      expect(await liveRow.innerText()).toMatch(/transaction\.succeeded\s+ord_\S+\s+10\.0000 INR · operator ref \S+/);
      expect(await page.locator('#events tr').count()).toBe(2);
      // It came on the open stream: the page asked for nothing to show it.
      expect(requested).toEqual([]);
    });

    it('sets a low-balance threshold, and a debit that crosses it raises the banner at once, from the live events', async () => {
      const { sandboxKey } = await newPartner('Low Balance Portal Partner');
      await signIn(sandboxKey);
      await page.click('[data-tab=access]');
      await page.locator('#low-balance-fieldset:enabled').waitFor();
      await page.fill('#low-balance-threshold', '995');
      await page.click('#low-balance-form button[type=submit]');
      await waitForText('#notice', 'Low-balance threshold set to 995.');
      await waitForText('#low-balance-state', 'below 995.00');
      expect((await service.partner('GET', '/settings', sandboxKey)).body.low_balance_threshold).toBe('995.00');
      expect(await page.locator('#low-balance').isHidden()).toBe(true);

      // A debit by the partner's own integration: 1000.00 -> 990.00, below 995.00.
      const placed = await topup(sandboxKey, '0001');
      expect(placed.status).toBe(200);
      await service.settle();
      await waitForText('#low-balance', 'Low balance: 990.00 INR available, below your threshold of 995.00 INR.');
      expect(await page.locator('#low-balance').innerText()).toContain(`Order ${placed.body.order_id} took it below`);
      await waitForText('#balance', '990.00 INR');
      await page.click('[data-tab=events]');
      await page.locator('#events tr[data-event="wallet.low_balance"]').waitFor();

      // Signing in again shows it too, from the balance and the threshold; turning the notice off hides it.
      await page.click('#sign-out');
      await signIn(sandboxKey);
      await waitForText('#low-balance', 'below your threshold of 995.00 INR');
      // The live events start with the latest ones, this crossing among them, which raises the banner again when it
      // arrives: let it arrive before the notice is turned off.
      await page.locator('#events tr[data-event="wallet.low_balance"]').waitFor({ state: 'attached' });
      await page.click('[data-tab=access]');
      await page.locator('#low-balance-fieldset:enabled').waitFor();
      await page.fill('#low-balance-threshold', '');
      await page.click('#low-balance-form button[type=submit]');
      await waitForText('#notice', 'Low-balance notice turned off.');
      expect(await page.locator('#low-balance').isHidden()).toBe(true);
    });
  },
);
