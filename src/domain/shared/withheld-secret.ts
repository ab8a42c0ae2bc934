const WITHHELD = 'withheld:';

/**
 * What an export made with `--without-secrets` writes in place of a key hash, an operator token
 * hash or a sealed webhook secret: `withheld:` and the event's id (unique, as the hashes it stands
 * for are). No key hashes to it and it opens to nothing: what it stands for is made again after
 * the import (keys regenerated, operator tokens issued, webhook secrets rotated).
 */
export const withheldSecret = (eventId: string): string => `${WITHHELD}${eventId}`;

export const isWithheld = (value: unknown): boolean => typeof value === 'string' && value.startsWith(WITHHELD);
