import { isCurrency } from '../../domain/money/currency';
import { KeySpend, WalletState } from '../../domain/wallet/wallet.decider';
import { JsonValue } from '../ports/event-store.port';

/** An integer in decimal text: how minor units are kept outside the process (never a JSON number, never a float). */
const INTEGER_TEXT = /^-?(?:0|[1-9]\d*)$/;

/** A folded wallet as JSON: amounts in minor units as decimal strings. */
export function encodeWalletState(state: WalletState): JsonValue {
  return {
    currency: state.currency,
    balanceMinor: state.balanceMinor.toString(),
    keySpends: state.keySpends.map((spend) => ({
      keyId: spend.keyId,
      orderId: spend.orderId,
      minor: spend.minor.toString(),
      placedAt: spend.placedAt,
    })),
  };
}

/**
 * The state `encodeWalletState` wrote, or null for anything else (a field missing, added or of
 * another type, an amount that is not an integer's text, a currency the service does not know).
 */
export function decodeWalletState(json: unknown): WalletState | null {
  if (!isRecordWithKeys(json, ['currency', 'balanceMinor', 'keySpends'])) return null;
  const { currency, balanceMinor, keySpends } = json;
  if (!isCurrency(currency) || !isIntegerText(balanceMinor) || !Array.isArray(keySpends)) return null;
  const spends: KeySpend[] = [];
  for (const spend of keySpends) {
    const decoded = decodeKeySpend(spend);
    if (!decoded) return null;
    spends.push(decoded);
  }
  return { currency, balanceMinor: BigInt(balanceMinor), keySpends: spends };
}

function decodeKeySpend(json: unknown): KeySpend | null {
  if (!isRecordWithKeys(json, ['keyId', 'orderId', 'minor', 'placedAt'])) return null;
  const { keyId, orderId, minor, placedAt } = json;
  if (typeof keyId !== 'string' || typeof orderId !== 'string' || !isIntegerText(minor)) return null;
  if (typeof placedAt !== 'string' || Number.isNaN(new Date(placedAt).getTime())) return null;
  return { keyId, orderId, minor: BigInt(minor), placedAt };
}

const isIntegerText = (value: unknown): value is string => typeof value === 'string' && INTEGER_TEXT.test(value);

function isRecordWithKeys<Key extends string>(value: unknown, keys: readonly Key[]): value is Record<Key, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const present = Object.keys(value);
  return present.length === keys.length && keys.every((key) => present.includes(key));
}
