import { WalletLedgerEntry } from '../../../application/audit/wallet-ledger';

export type AuditFormat = 'jsonl' | 'csv';

export const isAuditFormat = (value: unknown): value is AuditFormat => value === 'jsonl' || value === 'csv';

/** The columns of a wallet audit, in order; the JSON lines use the same names. */
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

/** RFC 4180: quoted when it holds a comma, quote or line break; a leading = + - @ is defused for spreadsheets. */
function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text) && !/^-\d/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The audit as text lines: one JSON object per event, or a CSV header and one row per event. */
export async function* auditLines(
  entries: AsyncIterable<WalletLedgerEntry>,
  format: AuditFormat,
): AsyncGenerator<string> {
  if (format === 'csv') yield `${COLUMNS.join(',')}\r\n`;
  for await (const entry of entries) {
    const row = record(entry);
    yield format === 'csv'
      ? `${COLUMNS.map((column) => csvField(row[column])).join(',')}\r\n`
      : `${JSON.stringify(row)}\n`;
  }
}
