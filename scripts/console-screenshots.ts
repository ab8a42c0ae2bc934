// Screenshots of every page of the operator console, taken from a running service, for docs/console.md.
//   npm run console-screenshots            (SERVICE_URL, and an owner's token as for the CLI: OPERATOR_TOKEN, ADMIN_TOKEN or DATA_DIR; CHROMIUM_PATH)
// It adds demo partners and sandbox orders to that service, so point it at a scratch one. The held
// order needs the stuck limit to pass: start that service with STUCK_ORDER_AFTER_SECONDS=31.
import { join } from 'node:path';
import { launchBrowser } from '../test/support/browser';
import { lookupAdminToken } from '../src/interface/cli/admin-token';
import { resolveServiceUrl } from '../src/interface/cli/service-url';
import { DemoClient } from './console-screenshots/admin-client';
import { WaitUntil, seedDemoData } from './console-screenshots/demo-data';
import { takeScreenshots } from './console-screenshots/take-screenshots';

const WAIT_LIMIT_MS = 180_000;
const POLL_MS = 1_000;

/** Polls a running service until the condition holds (its background work and clock move by themselves). */
const pollUntil: WaitUntil = async (what, ready) => {
  const deadline = Date.now() + WAIT_LIMIT_MS;
  process.stderr.write(`waiting for ${what}…\n`);
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${WAIT_LIMIT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
};

async function main(): Promise<void> {
  const url = resolveServiceUrl(process.env);
  if (url.kind === 'invalid') throw new Error(url.message);
  const token = lookupAdminToken(process.env, process.cwd());
  if (token.kind === 'missing') throw new Error(token.message);
  const folder = process.env.CONSOLE_SCREENSHOTS_DIR ?? join(__dirname, '..', 'docs', 'console');
  const client = new DemoClient(url.url, token.token);
  const demo = await seedDemoData(client, pollUntil);
  const browser = await launchBrowser();
  try {
    const taken = await takeScreenshots(browser, url.url, demo, folder);
    for (const shot of taken) process.stdout.write(`${join(folder, shot.file)}  ${shot.caption}\n`);
  } finally {
    await browser.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
