import { ProviderAnswerAtResolution } from './transaction.events';

/**
 * Whether a manual resolution goes against the provider's answer at that moment: failing (and refunding) an
 * order unless the provider answered that it failed, or settling one it answered failed
 * (docs/decisions/0118-resolution-asks-the-provider.md).
 */
export const resolutionContradicts = (
  outcome: 'success' | 'failed',
  word: ProviderAnswerAtResolution['word'],
): boolean => (outcome === 'failed' ? word !== 'failed' : word === 'failed');
