import { existsSync } from 'node:fs';
import { Browser, chromium } from 'playwright-core';

/** Debian's Chromium (package `chromium`); never a downloaded browser. `CHROMIUM_PATH` points elsewhere. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Whether the browser tests can run. In CI a missing browser is a failure (the tests run and
 * fail to launch); on a developer's machine the suite is skipped, and says so loudly.
 */
export function browserAvailable(suite: string): boolean {
  if (existsSync(CHROMIUM_PATH) || process.env.CI) return true;
  console.warn(
    `\n*** SKIPPED: ${suite} needs Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH) ***\n`,
  );
  return false;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}
