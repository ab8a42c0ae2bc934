import { v5 as uuidv5 } from 'uuid';

/** Namespace for the service's deterministic event and job ids. */
const NAMESPACE = '6f1c2d8e-4b7a-5c3e-9d10-2a6b8e4f7c21';

/**
 * The id of an event that a retry or a second process may try to append again: derived
 * from what it is about, so the store keeps only the first.
 */
export const deterministicEventId = (...parts: string[]): string => uuidv5(parts.join('|'), NAMESPACE);
