const WITHHELD = 'withheld:';

/**
 * What an export `--without-secrets` writes in place of a key hash, token hash or sealed secret: unique
 * like them, it matches no key and opens to nothing; they are made again after the import (decision 0141).
 */
export const withheldSecret = (eventId: string): string => `${WITHHELD}${eventId}`;

export const isWithheld = (value: unknown): boolean => typeof value === 'string' && value.startsWith(WITHHELD);
