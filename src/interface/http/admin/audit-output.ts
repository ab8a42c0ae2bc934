import { WalletLedgerEntry } from '../../../application/audit/wallet-ledger';

export type AuditFormat = 'jsonl' | 'csv';

export const isAuditFormat = (value: unknown): value is AuditFormat => value === 'jsonl' || value === 'csv';

const COLUMNS = [
  'revision',
  'position',
  'recorded_at',
  'occurred_at',
  'event_type',
  'event_id',
  'order_id',
  'kind',
  'amount',
  'signed_amount',
  'running_balance',
  'balance_after',
  'balance_matches',
  'currency',
  'actor_type',
  'actor_id',
  'correlation_id',
  'reference',
  'reason',
] as const;

type AuditRecord = Record<(typeof COLUMNS)[number], string | number | boolean | null>;

function record(entry: WalletLedgerEntry): AuditRecord {
  const runningBalance = entry.runningBalance.toDecimal();
  return {
    revision: entry.revision,
    position: entry.position,
    recorded_at: entry.recordedAt,
    occurred_at: entry.occurredAt,
    event_type: entry.eventType,
    event_id: entry.eventId,
    order_id: entry.orderId,
    kind: entry.kind,
    amount: entry.amount.toDecimal(),
    signed_amount: entry.signedAmount.toDecimal(),
    running_balance: runningBalance,
    balance_after: entry.balanceAfter,
    balance_matches: entry.balanceAfter === runningBalance,
    currency: entry.amount.currency,
    actor_type: entry.actor.type,
    actor_id: entry.actor.id,
    correlation_id: entry.correlationId,
    reference: entry.reference,
    reason: entry.reason,
  };
}

/** The columns whose values are numbers: written as they are when they read as a plain decimal. */
const NUMERIC_COLUMNS: ReadonlySet<string> = new Set([
  'revision',
  'position',
  'amount',
  'signed_amount',
  'running_balance',
  'balance_after',
]);

const PLAIN_DECIMAL = /^-?\d+(?:\.\d+)?$/;

/** What a spreadsheet may take for a formula's start (OWASP CSV injection, ASVS 1.2.10). */
const FORMULA_START = /^[=+\-@\t\r\0]/;

// One CSV cell: RFC 4180 quoting, and a formula start gets a leading quote so a spreadsheet shows text.
// A numeric column's plain decimal (`-120.00`) cannot be a formula and finance sums it, so it is left
// bare; anything else in a numeric column is guarded like text.
export function csvCell(value: string | number | boolean | null, numeric = false): string {
  if (value === null) return '';
  const text = String(value);
  if (numeric && PLAIN_DECIMAL.test(text)) return text;
  const quoted = (cell: string): string => `"${cell.replace(/"/g, '""')}"`;
  if (FORMULA_START.test(text)) return quoted(`'${text}`);
  return /[",\r\n]/.test(text) ? quoted(text) : text;
}

export async function* auditLines(
  entries: AsyncIterable<WalletLedgerEntry>,
  format: AuditFormat,
): AsyncGenerator<string> {
  if (format === 'csv') yield `${COLUMNS.join(',')}\r\n`;
  for await (const entry of entries) {
    const row = record(entry);
    yield format === 'csv'
      ? `${COLUMNS.map((column) => csvCell(row[column], NUMERIC_COLUMNS.has(column))).join(',')}\r\n`
      : `${JSON.stringify(row)}\n`;
  }
}
