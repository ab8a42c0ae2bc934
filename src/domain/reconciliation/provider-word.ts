import { ReconciliationMismatchFound } from './reconciliation.events';
import { UpstreamTransaction } from './reconciliation';

/**
 * What the provider's own reports last said of an order, as reconciliation recorded it: the status
 * of the order's transaction in the most recent finding that saw one; null when no finding did.
 */
export function providerWordOf(findings: readonly ReconciliationMismatchFound['data'][]): UpstreamTransaction | null {
  let latest: ReconciliationMismatchFound['data'] | null = null;
  for (const finding of findings)
    if (finding.upstream && (!latest || Date.parse(finding.foundAt) >= Date.parse(latest.foundAt))) latest = finding;
  return latest?.upstream ?? null;
}

/**
 * Whether resolving an order by hand with this outcome says the opposite of the provider's reports:
 * failing (and refunding) an order the provider reports paid, or settling one it reports failed.
 */
export function contradictsProvider(outcome: 'success' | 'failed', word: UpstreamTransaction | null): boolean {
  if (!word) return false;
  return outcome === 'failed' ? word.status === 'succeeded' : word.status === 'failed';
}
