import { Browser, Page } from 'playwright-core';
import { reconciliationDueAt } from '../../../src/domain/reconciliation/reconciliation-schedule';
import { micros } from '../../../tools/provider-sim/sim-money';
import { browserAvailable, launchBrowser } from '../../support/browser';
import {
  LiveUpstream,
  liveWalletPartner,
  setRoute,
  startLiveUpstream,
  transactionsOf,
} from '../../support/live-provider';
import { TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

const describeInBrowser = browserAvailable('the console reconciliation tests') ? describe : describe.skip;

/** Signs in to the console and waits for the operator's name to show. */
async function signInAs(page: Page, token: string, name: string): Promise<void> {
  await page.fill('#operator-token', token);
  await page.click('#sign-in-form button[type=submit]');
  await page.locator('#operator-name').filter({ hasText: name }).waitFor();
}

/**
 * The finance page's reconciliation (docs/decisions/0123-scheduled-reconciliation.md), in Chromium
 * against a real service and the Reloadly simulator: the runs the schedule made with their
 * mismatches, a run of a day by finance, and a run that failed with its reason.
 */
describeInBrowser('reconciliation on the console’s finance page, in Chromium against a real service', () => {
  let upstream: LiveUpstream;
  let service: TestService;
  let browser: Browser;
  let page: Page;
  let day: string;
  let mismatched: string;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    upstream = await startLiveUpstream();
    [service, browser] = await Promise.all([
      TestService.start({ store: 'postgres', env: { ...upstream.env, RECONCILIATION_AT: '02:30' } }),
      launchBrowser(),
    ]);
    await setRoute(service, { kind: 'operator', id: 101, upstream_id: '1201' });
    const { liveKey } = await liveWalletPartner(service);
    const place = async (key: string) =>
      (await service.topup(liveKey, { operator_id: 101, phone: '+919876540001', amount: 199 }, key)).body
        .order_id as string;
    await place('console-rec-matched');
    mismatched = await place('console-rec-amount');
    await service.settle();
    day = service.clock.now().toISOString().slice(0, 10);
    transactionsOf(upstream, mismatched)[0].delivered = { amount: micros('150'), currency: 'INR' };
    // The night after: the day's run, by itself.
    service.clock.set(reconciliationDueAt(day, { hour: 2, minute: 30 }, 'America/New_York'));
    await service.settle();
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await service?.close();
    await upstream?.close();
  });
  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${service.url}/console#finance`);
  });
  afterEach(async () => {
    await page.close();
    expect(pageErrors).toEqual([]);
  });

  const runRows = () => page.locator('#reconciliation-runs tr');
  /** The cells of the newest run of the day that holds the text. */
  const newestOfDay = async (text: string) =>
    runRows().filter({ hasText: day }).filter({ hasText: text }).first().locator('td').allInnerTexts();

  it('shows the runs the schedule made, with their counts, and the mismatches they found', async () => {
    await signInAs(page, await service.operatorToken('fin.console', 'finance'), 'fin.console');
    await runRows().filter({ hasText: day }).first().waitFor();
    const cells = await newestOfDay('scheduled');
    expect(cells.slice(1)).toEqual([
      'reloadly',
      day,
      'scheduled',
      'succeeded',
      '1',
      '1',
      '1',
      '0',
      '1 amount_mismatch',
    ]);
    const mismatch = page.locator('#reconciliation-mismatches tr').filter({ hasText: mismatched });
    expect(await mismatch.locator('td').allInnerTexts()).toEqual([
      day,
      'reloadly',
      'amount_mismatch',
      mismatched,
      'the provider took 150 INR, the order is for 199.00 INR',
    ]);
    expect(await page.locator('#reconcile-form').isVisible()).toBe(true);
  });

  it('runs a day for finance, and shows a run that failed with the reason: a report date that does not read', async () => {
    await signInAs(page, await service.operatorToken('fin.console', 'finance'), 'fin.console');
    await runRows().first().waitFor();
    const transaction = transactionsOf(upstream, mismatched)[0];
    transaction.writtenDate = 'yesterday-ish';
    try {
      await page.fill('#reconcile-form input[name=date]', day);
      await page.click('#reconcile-form button[type=submit]');
      await page.locator('#failure').filter({ hasText: 'could not be read' }).waitFor();
      await runRows().first().filter({ hasText: 'failed' }).waitFor();
      const cells = await newestOfDay('failed');
      expect(cells.slice(1, 5)).toEqual(['reloadly', day, 'by fin.console', 'failed']);
      expect(cells[9]).toBe(
        `reloadly: topup ${transaction.id} (${mismatched}) of the transaction report has a transactionDate that is not a time: "yesterday-ish"`,
      );
    } finally {
      delete transaction.writtenDate;
    }

    await page.click('#reconcile-form button[type=submit]');
    await page
      .locator('#notice')
      .filter({ hasText: `Reconciled reloadly ${day}` })
      .waitFor();
    expect(await page.locator('#notice').innerText()).toBe(
      `Reconciled reloadly ${day}: 1 matched, 1 mismatch(es), 0 recorded.`,
    );
    await runRows().first().filter({ hasText: 'succeeded' }).waitFor();
    expect((await newestOfDay('by fin.console')).slice(3, 8)).toEqual(['by fin.console', 'succeeded', '1', '1', '0']);
  });

  it('does not offer a run to the support role, which may read the runs', async () => {
    await signInAs(page, await service.operatorToken('ops.console', 'operator'), 'ops.console');
    await runRows().first().waitFor();
    expect(await page.locator('#reconcile-form').isVisible()).toBe(false);
  });
});
