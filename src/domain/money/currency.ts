/** The three wallet currencies. Each has two minor-unit digits (paisa, poisha, cent). */
export const CURRENCIES = {
  INR: { code: 'INR', minorDigits: 2 },
  BDT: { code: 'BDT', minorDigits: 2 },
  SGD: { code: 'SGD', minorDigits: 2 },
} as const;

export type Currency = keyof typeof CURRENCIES;

export const isCurrency = (value: unknown): value is Currency =>
  typeof value === 'string' && Object.prototype.hasOwnProperty.call(CURRENCIES, value);

export const minorDigitsOf = (currency: Currency): number => CURRENCIES[currency].minorDigits;
