import { KeyRefusal, KeyUsage } from '../ports/key-usage.port';

/**
 * Counts a restricted key's refusal (its scope or caps) in its usage. The refusal is the answer: a count that
 * could not be written must not turn it into a 500.
 */
export async function countKeyRefusal(usage: KeyUsage, refusal: KeyRefusal): Promise<void> {
  await usage.recordRefusal(refusal).catch(() => undefined);
}
