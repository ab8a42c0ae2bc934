/**
 * The peer's request rules for POST /topup: the same body rules, order of checks and Error
 * bodies as the service (docs/performance.md, "The CRUD peer"). The operator catalog is the
 * service's own data file and phone numbers are read by the service's own domain rule, so
 * "the same rules" holds by construction for those two; the rest is written here.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCorridorPhone } from '../../src/domain/phone/corridor-phone';

export type Corridor = 'IN' | 'BD' | 'SG';
export const CURRENCY_OF: Record<Corridor, string> = { IN: 'INR', BD: 'BDT', SG: 'SGD' };

/** A refusal: the status and the interface's Error body. */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(`${code}: ${detail}`);
  }
}

const STATUS_OF: Record<string, number> = {
  validation_failed: 400,
  idempotency_key_required: 400,
  invalid_api_key: 401,
  insufficient_balance: 402,
  kyc_required: 403,
  ip_not_allowed: 403,
  operator_not_found_or_wrong_corridor: 404,
  not_found: 404,
  idempotency_conflict: 409,
  amount_out_of_range: 422,
  rate_limit_exceeded: 429,
};

export const refuse = (code: string, detail: string, headers: Record<string, string> = {}): Refusal =>
  new Refusal(STATUS_OF[code] ?? 500, code, detail, headers);

interface Operator {
  id: number;
  name: string;
  corridor: Corridor;
  min_amount: string;
  max_amount: string;
  active: boolean;
}

const OPERATORS = new Map<number, Operator>(
  (
    JSON.parse(
      readFileSync(join(__dirname, '..', '..', 'src', 'infrastructure', 'catalog', 'data', 'operators.json'), 'utf8'),
    ) as Operator[]
  ).map((operator) => [operator.id, operator]),
);

export interface TopupBody {
  operator_id: number;
  phone: string;
  amount: number;
  reference?: string;
}

/** A topup the peer may debit: the amount in minor units (cents), the phone in E.164. */
export interface CheckedTopup {
  operatorId: number;
  phone: string;
  minor: bigint;
  reference: string | null;
  currency: string;
}

const FIELDS = ['operator_id', 'phone', 'amount', 'reference', 'validate_only'] as const;
const MAX_ID = 2_147_483_647;
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{8,255}$/;

/** The body's shape: a JSON object of known fields, each of its declared type and length (400 validation_failed). */
export function checkedBody(value: unknown): TopupBody & { validate_only?: boolean } {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw refuse('validation_failed', 'body: must be a JSON object');
  const body = value as Record<string, unknown>;
  for (const [field, text] of Object.entries(body)) {
    if (typeof text === 'string' && CONTROL_CHARACTER.test(text))
      throw refuse('validation_failed', `${field}: must not contain control characters`);
  }
  for (const field of Object.keys(body)) {
    if (!(FIELDS as readonly string[]).includes(field))
      throw refuse('validation_failed', `${field}: is not a field of this request`);
  }
  const fail = (field: string, reason: string): never => {
    throw refuse('validation_failed', `${field}: ${reason}`);
  };
  const { operator_id: operatorId, phone, amount, reference, validate_only: validateOnly } = body;
  if (operatorId === undefined || operatorId === null) fail('operator_id', 'is required');
  if (typeof operatorId !== 'number' || !Number.isInteger(operatorId)) fail('operator_id', 'must be an integer');
  if ((operatorId as number) < 1) fail('operator_id', 'must be a positive integer');
  if ((operatorId as number) > MAX_ID) fail('operator_id', 'is not a known id');
  if (phone === undefined || phone === null) fail('phone', 'is required');
  if (typeof phone !== 'string') fail('phone', 'must be a string');
  if ((phone as string).length < 1) fail('phone', 'must not be empty');
  if ((phone as string).length > 20) fail('phone', 'must be at most 20 characters');
  if (amount === undefined || amount === null) fail('amount', 'is required');
  if (typeof amount !== 'number' || !Number.isFinite(amount)) fail('amount', 'must be a JSON number');
  if (reference !== undefined && reference !== null) {
    if (typeof reference !== 'string') fail('reference', 'must be a string');
    if ((reference as string).length > 100) fail('reference', 'must be at most 100 characters');
  }
  if (validateOnly !== undefined && validateOnly !== null && typeof validateOnly !== 'boolean')
    fail('validate_only', 'must be true or false');
  return body as unknown as TopupBody & { validate_only?: boolean };
}

/** The business checks, in the service's order: operator of the corridor (404), phone (400), amount (400), range (422). */
export function checkedTopup(body: TopupBody, corridor: Corridor): CheckedTopup {
  const operator = OPERATORS.get(body.operator_id);
  if (!operator || !operator.active || operator.corridor !== corridor)
    throw refuse(
      'operator_not_found_or_wrong_corridor',
      `operator_id ${body.operator_id} is not an operator of the ${corridor} corridor`,
    );
  const phone = parseCorridorPhone(body.phone, corridor);
  if (!phone.ok) throw refuse('validation_failed', phone.detail);
  const currency = CURRENCY_OF[corridor];
  if (body.amount <= 0) throw refuse('validation_failed', 'amount: must be greater than zero');
  const minor = minorUnitsOf(body.amount);
  if (minor === null)
    throw refuse(
      'validation_failed',
      'amount: must be a plain decimal with at most 2 decimal places and at most 15 integer digits',
    );
  const min = centsOf(operator.min_amount);
  const max = centsOf(operator.max_amount);
  if (minor < min || minor > max)
    throw refuse(
      'amount_out_of_range',
      `amount must be between ${operator.min_amount} and ${operator.max_amount} ${currency} for ${operator.name}`,
    );
  return { operatorId: operator.id, phone: phone.e164, minor, reference: body.reference ?? null, currency };
}

/** A JSON number read exactly as the decimal it was written as, in cents; null past 2 decimals or 15 digits. */
function minorUnitsOf(value: number): bigint | null {
  const text = String(value);
  const match = /^(\d{1,15})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return null;
  return BigInt(match[1]) * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
}

/** A decimal text with at most 2 places, in cents: "10.5" → 1050n. */
export const centsOf = (text: string): bigint => {
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2));
};

/** Cents as a decimal with `digits` places: 1000n, 2 → "10.00". */
export function decimalOf(minor: bigint, digits = 2): string {
  const negative = minor < 0n;
  const absolute = negative ? -minor : minor;
  const text = `${absolute / 100n}.${String(absolute % 100n).padStart(2, '0')}`;
  return `${negative ? '-' : ''}${text}${'0'.repeat(Math.max(digits - 2, 0))}`;
}

/** Two requests are the same when their JSON content is, whatever the key order (validate_only aside). */
export function requestHash(body: TopupBody): string {
  const { operator_id, phone, amount, reference } = body;
  const canonical = JSON.stringify(
    Object.fromEntries(
      Object.entries({ amount, operator_id, phone, reference }).filter(([, value]) => value !== undefined),
    ),
  );
  return createHash('sha256').update(`topup\n${canonical}`).digest('hex');
}
