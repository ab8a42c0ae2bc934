import { Currency } from '../money/currency';

/** A partner's market, fixed at onboarding. The wallet currency follows from it; nothing is converted. */
export const CORRIDORS = {
  IN: { code: 'IN', currency: 'INR', country: 'IN' },
  BD: { code: 'BD', currency: 'BDT', country: 'BD' },
  SG: { code: 'SG', currency: 'SGD', country: 'SG' },
} as const satisfies Record<string, { code: string; currency: Currency; country: string }>;

export type Corridor = keyof typeof CORRIDORS;

export const isCorridor = (value: unknown): value is Corridor =>
  typeof value === 'string' && Object.prototype.hasOwnProperty.call(CORRIDORS, value);

export const currencyOf = (corridor: Corridor): Currency => CORRIDORS[corridor].currency;
