import { IDEMPOTENCY_KEY_PATTERN } from '../../application/ports/idempotency-store.port';

export type ValueKind =
  | 'text'
  | 'id'
  | 'corridor'
  | 'environment'
  | 'kyc-status'
  | 'outcome'
  | 'amount'
  | 'date'
  | 'positive-int'
  | 'url'
  | 'cidr-list'
  | 'audit-format'
  | 'report-format'
  | 'idempotency-key'
  | 'product-kind'
  | 'provider'
  | 'key-scope'
  | 'operator-role'
  | 'operator-name'
  | 'date-time';

const oneOf =
  (...allowed: string[]) =>
  (value: string): string | null =>
    allowed.includes(value) ? null : `must be one of ${allowed.join(', ')}`;

// At most 2 fraction digits, no sign, exponent or leading zeros: the string is sent to the server as typed.
const AMOUNT = /^(0|[1-9][0-9]*)(\.[0-9]{1,2})?$/;

const isCalendarDate = (value: string): boolean => {
  if (!/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value);
};

const CHECKS: Record<ValueKind, (value: string) => string | null> = {
  text: (value) => (value.trim() === '' ? 'must not be empty' : null),
  // Starting with a letter or digit keeps `.` and `..` from turning the path into another route.
  id: (value) => (/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/.test(value) ? null : 'must be an id of letters, digits, _ . : -'),
  corridor: oneOf('IN', 'BD', 'SG'),
  environment: oneOf('sandbox', 'live'),
  'kyc-status': oneOf('approved', 'suspended'),
  outcome: oneOf('success', 'failed'),
  amount: (value) =>
    AMOUNT.test(value) && /[1-9]/.test(value)
      ? null
      : 'must be a positive decimal with at most 2 fraction digits, e.g. 10.50',
  date: (value) => (isCalendarDate(value) ? null : 'must be a date as YYYY-MM-DD'),
  // An empty value removes the webhook URL; the server checks the scheme rules per environment.
  url: (value) =>
    value === '' || /^https?:\/\/\S+$/.test(value) ? null : 'must be an http(s) URL, or "" to remove it',
  // The server checks each entry; here only the shape, so a typo is caught before sending.
  'cidr-list': (value) =>
    /^[0-9A-Fa-f:./]*(,[0-9A-Fa-f:./]+)*$/.test(value) ? null : 'must be comma-separated IPs or CIDRs, or "" for none',
  'audit-format': oneOf('jsonl', 'csv'),
  'report-format': oneOf('json', 'html'),
  'idempotency-key': (value) =>
    IDEMPOTENCY_KEY_PATTERN.test(value) ? null : 'must be 8 to 255 visible ASCII characters',
  'product-kind': oneOf('operator', 'biller'),
  provider: (value) =>
    /^[a-z][a-z0-9-]{1,31}$/.test(value) ? null : 'must be a provider name: lower-case letters, digits and -',
  'key-scope': oneOf('read_only', 'transact'),
  'operator-role': oneOf('owner', 'operator', 'finance', 'engineer'),
  // The server checks reserved names; here the shape, which also keeps the value a single path segment.
  'operator-name': (value) =>
    /^[a-z0-9][a-z0-9._@-]{0,63}$/.test(value)
      ? null
      : 'must be 1 to 64 lower-case letters, digits and . _ @ -, starting with a letter or digit',
  'date-time': (value) =>
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value) &&
    !Number.isNaN(Date.parse(value))
      ? null
      : 'must be an ISO 8601 date-time, e.g. 2026-12-31T00:00:00Z',
  'positive-int': (value) => (/^[1-9][0-9]{0,8}$/.test(value) ? null : 'must be a positive whole number'),
};

export const checkValue = (kind: ValueKind, value: string): string | null => CHECKS[kind](value);
