import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser } from 'playwright-core';
import { DemoData } from './demo-data';

export interface Screenshot {
  file: string;
  caption: string;
}

/** One picture per page of the console, in the order docs/console.md shows them. */
export async function takeScreenshots(
  browser: Browser,
  serviceUrl: string,
  demo: DemoData,
  folder: string,
): Promise<Screenshot[]> {
  mkdirSync(folder, { recursive: true });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('dialog', (dialog) => void dialog.accept());
  const taken: Screenshot[] = [];
  const shoot = async (file: string, caption: string) => {
    await page.screenshot({ path: join(folder, file), fullPage: true });
    taken.push({ file, caption });
  };
  const tab = (name: string) => page.click(`[data-tab=${name}]`);
  const shown = (selector: string, text: string) => page.locator(selector).filter({ hasText: text }).first().waitFor();

  try {
    await page.goto(`${serviceUrl}/console`);
    await shoot('sign-in.png', "Sign-in: the operator's own token, held in memory only.");
    await page.fill('#operator-token', demo.operatorToken);
    await page.click('#sign-in-form button[type=submit]');
    await shown('#operator-name', 'ops.demo');

    await page.locator('#overview-orders-chart > svg').waitFor();
    await page.locator('#overview-webhooks-chart > svg').waitFor();
    await shoot(
      'overview.png',
      "Overview, the landing page: today's figures, the week's charts drawn by the service, orders and amounts by corridor and environment, success rates, the live providers' float and breaker, webhook attempts and projection lag.",
    );

    await tab('partners');
    await page.click(`#partners tr[data-partner-id="${demo.partnerId}"]`);
    await page.locator('#settings-fieldset:enabled').waitFor();
    await page.fill('#credit-form input[name=amount]', '5000.00');
    await page.fill('#credit-form input[name=reference]', 'NEFT UTIB0000456');
    await page.selectOption('#credit-form select[name=environment]', 'live');
    await page.click('#credit-form button[type=submit]');
    await shown('#credit-summary', 'Credit 5000.00 INR');
    await shoot(
      'partners.png',
      'Partners: search, create, and a partner with KYC, keys, settings and a credit waiting for its confirmation.',
    );
    await page.click('#credit-cancel');

    await tab('orders');
    await page.locator(`#held-orders tr[data-order-id="${demo.heldOrderId}"]`).click();
    await shown('#order-timeline', 'TransactionDisputed');
    await page.check('#resolve-form input[value=failed]');
    await page.fill('#resolve-reason', 'Operator portal shows no recharge for this number');
    await page.click('#resolve-form button[type=submit]');
    await shown('#resolve-summary', 'Resolve');
    await shoot(
      'orders.png',
      'Orders: the held queue, the search, and a held order with its timeline and a resolution waiting for its confirmation.',
    );
    await page.click('#resolve-cancel');

    await tab('webhooks');
    await page.fill('#delivery-filters input[name=partner_id]', demo.partnerId);
    await page.click('#delivery-filters button[type=submit]');
    await page.locator('#deliveries tr').first().waitFor();
    await shoot('webhooks.png', 'Webhooks: deliveries by partner and state, every attempt, and re-send.');

    await tab('finance');
    await page.fill('#finance-form input[name=partner_id]', demo.partnerId);
    await page.fill('#finance-form input[name=date]', demo.day);
    await page.click('#finance-form button[type=submit]');
    await page.locator('#statement').waitFor();
    await page.fill('#report-form input[name=from]', demo.day);
    await page.fill('#report-form input[name=to]', demo.day);
    await page.click('#report-form button[type=submit]');
    await page.locator('#report #chart').waitFor();
    await page.click('#verify');
    await shown('#verify-result', 'money invariant');
    await shoot('finance.png', "Finance: a wallet's day, the period report with its chart, exports and verify.");

    await tab('engineering');
    await page.locator('#projections tr').first().waitFor();
    await page.locator('#jobs-summary').filter({ hasText: 'open' }).waitFor();
    await shoot(
      'engineering.png',
      'Engineering: projections with version, checkpoint and lag (rebuild from here), and the job backlog.',
    );

    await tab('operators');
    await page
      .locator('#operators button.link', { hasText: /^ops\.demo$/ })
      .first()
      .click(); // the newest token of ops.demo
    await shown('#operator-audit', 'webhook_delivery_resent');
    await shoot(
      'operators.png',
      'Operators: each token with its role, status, expiry and last use (create and revoke from here), and what one operator did: the events recorded under their name and the re-sends and rebuilds they started.',
    );
  } finally {
    await page.close();
  }
  if (errors.length) throw new Error(`the console reported errors: ${errors.join('; ')}`);
  return taken;
}
