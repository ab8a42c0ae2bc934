import { Currency, minorDigitsOf } from '../../domain/money/currency';
import { Money } from '../../domain/money/money';
import { ServiceError } from '../shared/service-error';

/** Reads the request's JSON-number amount exactly, or refuses it naming the field. */
export function requestAmount(value: number, currency: Currency): Money {
  if (!Number.isFinite(value)) throw new ServiceError('validation_failed', 'amount: must be a finite number');
  if (value <= 0) throw new ServiceError('validation_failed', 'amount: must be greater than zero');
  const money = Money.fromJsonNumber(value, currency);
  if (!money) {
    throw new ServiceError(
      'validation_failed',
      `amount: must be a plain decimal with at most ${minorDigitsOf(currency)} decimal places and at most 15 integer digits`,
    );
  }
  return money;
}
