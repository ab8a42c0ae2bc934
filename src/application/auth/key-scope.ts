import { KeyCaps, keyCapsOf } from '../../domain/partner/scoped-key';
import { ServiceError } from '../shared/service-error';
import { Caller } from './caller';

/** Placing orders (and their dry runs) needs the main key or a transact key. */
export function requireTransact(caller: Caller): void {
  if (caller.restriction?.scope === 'read_only') {
    throw new ServiceError('scope_forbidden', 'this API key is read-only: it cannot place orders');
  }
}

/** Managing keys and settings needs the environment's main key. */
export function requireMainKey(caller: Caller, what: string): void {
  if (caller.restriction)
    throw new ServiceError('scope_forbidden', `only the main API key can ${what}; this key is restricted`);
}

/** The caps an order of this caller is placed under; null for the main key. */
export function capsOf(caller: Caller): KeyCaps | null {
  const restriction = caller.restriction;
  if (!restriction) return null;
  return keyCapsOf(caller.keyId, restriction.perOrderMax, restriction.dailyMax, caller.currency);
}
