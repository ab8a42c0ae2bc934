import { Currency } from '../money/currency';
import { Money } from '../money/money';

/** What a restricted key may do: read only, or also place orders within its caps. */
export type KeyScope = 'read_only' | 'transact';

export const KEY_SCOPES: readonly KeyScope[] = ['read_only', 'transact'];

/** The rolling window of a key's daily maximum. */
export const KEY_CAP_WINDOW_MS = 24 * 60 * 60 * 1000;

/** At most this many active restricted keys per partner and environment. */
export const MAX_ACTIVE_SCOPED_KEYS = 50;

export const MAX_KEY_LABEL_LENGTH = 100;

/**
 * The caps a transact key places orders under, in the wallet currency of its environment
 * (the corridor's currency). Null: no such cap.
 */
export interface KeyCaps {
  keyId: string;
  perOrderMax: Money | null;
  dailyMax: Money | null;
}

/** The caps as recorded (decimal strings), read back in the wallet currency. */
export function keyCapsOf(
  keyId: string,
  perOrderMax: string | null,
  dailyMax: string | null,
  currency: Currency,
): KeyCaps {
  const read = (text: string | null): Money | null => {
    if (text === null) return null;
    const money = Money.parse(text, currency);
    if (!money) throw new Error(`unreadable key cap ${text}`);
    return money;
  };
  return { keyId, perOrderMax: read(perOrderMax), dailyMax: read(dailyMax) };
}
