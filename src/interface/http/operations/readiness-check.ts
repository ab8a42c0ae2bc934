import { Logger } from '@nestjs/common';

/** A check that has not answered by then counts as down (a hung connection must not hang the probe). */
export const CHECK_TIMEOUT_MS = 2_000;

export type CheckResult = { status: 'up' } | { status: 'down'; message: string };

/** A reason a check is down that is ours to tell, shown as it is in the unauthenticated probe's answer. */
export class NotReady extends Error {}

const logger = new Logger('Readiness');

// Runs one check within CHECK_TIMEOUT_MS. The probe answers anyone, so a dependency's error (which can name
// hosts and users) is told only as "does not answer", and logged in full (the log masks secrets).
export async function outcomeOf(name: string, check: () => Promise<void>): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NotReady(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return { status: 'up' };
  } catch (error) {
    if (error instanceof NotReady) return { status: 'down', message: error.message };
    logger.warn(`readiness check ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
    return { status: 'down', message: 'does not answer (the service log has the error)' };
  } finally {
    clearTimeout(timer);
  }
}
