import { Currency } from '../../domain/money/currency';
import { Money } from '../../domain/money/money';

export const iso = (value: Date | string): string => new Date(value).toISOString();

export function decimal(text: string, currency: Currency): string {
  // A negative balance means a money invariant was breached; it must stay readable so verify can report it.
  const negative = text.startsWith('-');
  const money = Money.parse(negative ? text.slice(1) : text, currency);
  if (!money) throw new Error(`unreadable amount in read model: ${text}`);
  return negative ? Money.zero(currency).minus(money).toDecimal() : money.toDecimal();
}
