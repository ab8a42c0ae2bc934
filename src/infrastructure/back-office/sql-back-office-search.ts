import {
  BackOfficeSearch,
  JobBacklogLine,
  OrderSearch,
  PartnerSearch,
} from '../../application/ports/back-office-search.port';
import { StoredOrderView, PartnerView } from '../../application/ports/read-models.port';
import { ORDER_COLUMNS, OrderViewRow, toOrderView } from '../read-models/order-view-row';
import { PARTNER_COLUMNS, PartnerRow, toPartnerView } from '../read-models/partner-view-row';
import { SqlExecutor } from '../sql/sql-database';

class Conditions {
  readonly params: unknown[] = [];
  private readonly clauses: string[] = [];

  add(clause: (n: number) => string, value: unknown): void {
    if (value === undefined) return;
    this.params.push(value);
    this.clauses.push(clause(this.params.length));
  }

  where(): string {
    return this.clauses.length ? `WHERE ${this.clauses.join(' AND ')}` : '';
  }

  limit(value: number): string {
    this.params.push(value);
    return `LIMIT $${this.params.length}`;
  }
}

const containing = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The back office's searches over the projected tables; phone and consumer number are matched on the product column, unindexed. */
export class SqlBackOfficeSearch implements BackOfficeSearch {
  constructor(private readonly db: SqlExecutor) {}

  async partners(search: PartnerSearch): Promise<PartnerView[]> {
    const conditions = new Conditions();
    conditions.add(
      (n) => `(name ILIKE $${n} OR partner_id ILIKE $${n})`,
      search.text === undefined ? undefined : containing(search.text),
    );
    conditions.add((n) => `corridor = $${n}`, search.corridor);
    conditions.add((n) => `kyc_status = $${n}`, search.kycStatus);
    const limit = conditions.limit(search.limit);
    const rows = await this.db.query<PartnerRow>(
      `SELECT ${PARTNER_COLUMNS} FROM rm_partners ${conditions.where()}
        ORDER BY created_at DESC, partner_id DESC ${limit}`,
      conditions.params,
    );
    return rows.map(toPartnerView);
  }

  async orders(search: OrderSearch): Promise<StoredOrderView[]> {
    const conditions = new Conditions();
    conditions.add((n) => `partner_id = $${n}`, search.partnerId);
    conditions.add((n) => `environment = $${n}`, search.environment);
    conditions.add((n) => `status = $${n}`, search.status);
    conditions.add((n) => `created_at >= $${n}::timestamptz`, search.createdFrom);
    conditions.add((n) => `created_at < $${n}::timestamptz`, search.createdTo);
    conditions.add((n) => `reference = $${n}`, search.reference);
    conditions.add((n) => `product->>'phone' = $${n}`, search.phone);
    conditions.add((n) => `product->>'consumerNumber' = $${n}`, search.consumerNumber);
    const limit = conditions.limit(search.limit);
    const rows = await this.db.query<OrderViewRow>(
      `SELECT ${ORDER_COLUMNS} FROM rm_orders ${conditions.where()} ORDER BY created_at DESC, order_id DESC ${limit}`,
      conditions.params,
    );
    return rows.map(toOrderView);
  }

  async jobBacklog(now: Date): Promise<JobBacklogLine[]> {
    const rows = await this.db.query<{
      kind: string;
      open: string;
      due: string;
      retrying: string;
      running: string;
      oldest_due_at: Date | string | null;
      last_error: string | null;
    }>(
      `SELECT kind,
              count(*) AS open,
              count(*) FILTER (WHERE due_at <= $1) AS due,
              count(*) FILTER (WHERE attempts > 0 AND (locked_until IS NULL OR locked_until <= $1)) AS retrying,
              count(*) FILTER (WHERE locked_until > $1) AS running,
              min(due_at) AS oldest_due_at,
              (array_agg(last_error ORDER BY due_at) FILTER (WHERE last_error IS NOT NULL))[1] AS last_error
         FROM jobs WHERE done_at IS NULL GROUP BY kind ORDER BY kind`,
      [now.toISOString()],
    );
    return rows.map((row) => ({
      kind: row.kind,
      open: Number(row.open),
      due: Number(row.due),
      retrying: Number(row.retrying),
      running: Number(row.running),
      oldestDueAt: row.oldest_due_at === null ? null : new Date(row.oldest_due_at).toISOString(),
      lastError: row.last_error,
    }));
  }
}
