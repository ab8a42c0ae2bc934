import { Corridor } from '../../domain/corridor/corridor';
import { Currency } from '../../domain/money/currency';

export interface OperatorEntry {
  id: number;
  apiOperatorId: string;
  name: string;
  category: 'MOBILE_PREPAID';
  corridor: Corridor;
  currency: Currency;
  minAmount: string;
  maxAmount: string;
  active: boolean;
}

/** Every biller category, in the order the API lists them. */
export const BILLER_CATEGORIES = [
  'POSTPAID_MOBILE',
  'ELECTRICITY',
  'WATER',
  'GAS',
  'BROADBAND',
  'DTH',
  'LANDLINE',
  'INSURANCE',
  'CREDIT_CARD',
] as const;

export type BillerCategory = (typeof BILLER_CATEGORIES)[number];

export const isBillerCategory = (value: unknown): value is BillerCategory =>
  typeof value === 'string' && (BILLER_CATEGORIES as readonly string[]).includes(value);

export interface BillerParam {
  name: string;
  label: string;
  required: boolean;
  pattern: string | null;
}

export interface BillerEntry {
  id: number;
  apiBillerId: string;
  name: string;
  category: BillerCategory;
  corridor: Corridor;
  currency: Currency;
  bbps: boolean;
  /** What the biller calls the consumer number (BBPS names it per biller, e.g. "CA Number") and its shape. */
  consumerNumber?: { label: string; pattern: string | null };
  params: BillerParam[];
  active: boolean;
}

/** The operators and billers the service can serve, per corridor. */
export interface Catalog {
  operators(corridor: Corridor): OperatorEntry[];
  operator(id: number): OperatorEntry | null;
  billers(corridor: Corridor): BillerEntry[];
  biller(id: number): BillerEntry | null;
  /** The operator that owns the number's prefix in the corridor's numbering plan (ported numbers may differ). */
  detectOperator(corridor: Corridor, e164Phone: string): OperatorEntry | null;
}

export const CATALOG = Symbol('Catalog');
