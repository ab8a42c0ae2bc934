import { startOfDay } from '../../../application/audit/wallet-ledger';
import { ServiceError } from '../../../application/shared/service-error';

export class BackOfficeQuery {
  constructor(private readonly query: Record<string, unknown>) {}

  text(name: string, maxLength = 200): string | undefined {
    const value = this.query[name];
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string') throw new ServiceError('validation_failed', `${name}: give it once`);
    if (value.length > maxLength || /[\u0000-\u001f]/.test(value))
      throw new ServiceError('validation_failed', `${name}: at most ${maxLength} characters, no control characters`);
    return value;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
    const value = this.text(name);
    if (value === undefined) return undefined;
    if (!(allowed as readonly string[]).includes(value))
      throw new ServiceError('validation_failed', `${name}: one of ${allowed.join(', ')}`);
    return value as T;
  }

  /** An ISO 8601 date or date-time: a real calendar day, in years 0001–9999 (what the database holds). */
  instant(name: string): string | undefined {
    const value = this.text(name);
    if (value === undefined) return undefined;
    const shaped =
      /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2}))?$/.test(value) && startOfDay(value.slice(0, 10)) !== null;
    const at = shaped ? Date.parse(value) : Number.NaN;
    const year = Number.isNaN(at) ? 0 : new Date(at).getUTCFullYear();
    if (year < 1 || year > 9999) throw new ServiceError('validation_failed', `${name}: an ISO 8601 date or date-time`);
    return new Date(at).toISOString();
  }

  /** A phone number as operators type it (spaces, dashes, brackets, with or without +), as stored: +digits. */
  phone(name: string): string | undefined {
    const value = this.text(name, 40);
    if (value === undefined) return undefined;
    const digits = value.replace(/[\s().-]/g, '');
    if (!/^\+?\d{4,20}$/.test(digits))
      throw new ServiceError(
        'validation_failed',
        `${name}: a phone number in international form, such as +919876540001`,
      );
    return digits.startsWith('+') ? digits : `+${digits}`;
  }
}
