import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Browser } from 'playwright-core';
import { DemoClient } from '../../../scripts/console-screenshots/admin-client';
import { WaitUntil, seedDemoData } from '../../../scripts/console-screenshots/demo-data';
import { takeScreenshots } from '../../../scripts/console-screenshots/take-screenshots';
import { browserAvailable, launchBrowser } from '../../support/browser';
import { TEST_ADMIN_TOKEN, TestService } from '../../support/test-service';
import { SERVICE_START_TIMEOUT_MS } from '../../support/timeouts';

const STUCK_AFTER_MS = 60_000;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const describeInBrowser = browserAvailable('the console screenshot script test') ? describe : describe.skip;

describeInBrowser('the console screenshot script (npm run console-screenshots)', () => {
  let service: TestService;
  let browser: Browser;
  let folder: string;

  beforeAll(async () => {
    // One after the other, not side by side: if one fails to start, the other is still assigned and closed by afterAll
    // (a browser launched beside a failed start was never closed, and kept the jest worker from exiting).
    browser = await launchBrowser();
    service = await TestService.start({
      store: 'postgres',
      env: { STUCK_ORDER_AFTER_SECONDS: String(STUCK_AFTER_MS / 1000) },
    });
    folder = mkdtempSync(join(tmpdir(), 'console-screenshots-'));
  }, SERVICE_START_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await service?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  /** The manual clock instead of waiting: run what is due, and if not ready yet, let the stuck limit pass. */
  const drive: WaitUntil = async (what, ready) => {
    await service.settle();
    if (await ready()) return;
    await service.advance(STUCK_AFTER_MS);
    if (!(await ready())) throw new Error(`not ready: ${what}`);
  };

  it('seeds a service and photographs every page of the console without a page error', async () => {
    const demo = await seedDemoData(new DemoClient(service.url, TEST_ADMIN_TOKEN), drive);
    expect(
      (await service.admin('GET', '/orders?held=true')).body.orders.map(
        (order: { order_id: string }) => order.order_id,
      ),
    ).toContain(demo.heldOrderId);

    const taken = await takeScreenshots(browser, service.url, demo, folder);
    expect(taken.map((shot) => shot.file)).toEqual([
      'sign-in.png',
      'overview.png',
      'partners.png',
      'orders.png',
      'webhooks.png',
      'finance.png',
      'engineering.png',
      'operators.png',
    ]);
    for (const shot of taken) {
      const image = readFileSync(join(folder, shot.file));
      expect(image.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
      expect(image.length).toBeGreaterThan(10_000);
    }
    // The photographs leave the held order held: the demo shows the confirmation step, never confirms it.
    expect((await service.admin('GET', `/orders/${demo.heldOrderId}`)).body.status).toBe('DISPUTED');
  });
});
