import { ProviderAnswerAtResolution } from './transaction.events';

/**
 * Whether a manual resolution goes against the provider's answer at that moment (decision 0118). An order
 * never sent may also be failed when the provider has no record of it (or cannot be asked).
 */
export function resolutionContradicts(
  outcome: 'success' | 'failed',
  word: ProviderAnswerAtResolution['word'],
  neverSent = false,
): boolean {
  if (outcome === 'success') return word === 'failed';
  return !(word === 'failed' || (neverSent && (word === 'unknown' || word === 'no_answer')));
}
