import { ProviderAnswerAtResolution } from './transaction.events';

/**
 * Whether a manual resolution goes against the provider's answer at that moment: failing (and refunding) an
 * order unless the provider answered that it failed, or settling one it answered failed
 * (docs/decisions/0118-resolution-asks-the-provider.md). An order nothing of which was ever sent may also be
 * failed when the provider has no record of it (or cannot be asked): it cannot deliver what it never received.
 */
export function resolutionContradicts(
  outcome: 'success' | 'failed',
  word: ProviderAnswerAtResolution['word'],
  neverSent = false,
): boolean {
  if (outcome === 'success') return word === 'failed';
  return !(word === 'failed' || (neverSent && (word === 'unknown' || word === 'no_answer')));
}
