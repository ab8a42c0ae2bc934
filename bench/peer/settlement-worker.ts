import { PeerDb } from './counted-pool';

/** The sandbox provider's answers by the phone's last four digits; other suffixes succeed at once. */
type Step = 'submit' | 'complete_success' | 'complete_failure';
type Outcome = { kind: 'success' } | { kind: 'failure' } | { kind: 'later'; step: Step } | { kind: 'stuck' };

export const SANDBOX_DELAY_MS = 30_000;

function sandboxOutcome(step: Step, phone: string): Outcome {
  if (step === 'complete_success') return { kind: 'success' };
  if (step === 'complete_failure') return { kind: 'failure' };
  switch (phone.slice(-4)) {
    case '0002':
      return { kind: 'failure' };
    case '0003':
      return { kind: 'later', step: 'complete_success' };
    case '0004':
      return { kind: 'later', step: 'complete_failure' };
    case '0005':
      return { kind: 'stuck' };
    default:
      return { kind: 'success' };
  }
}

interface DueRow {
  outbox_id: string;
  step: Step;
  order_id: string;
  phone: string;
}

/**
 * Settles the outbox in batches: claims up to `batch` due rows with their orders, asks the
 * sandbox provider (in process, by phone suffix), and writes every outcome of the batch in one
 * statement: order rows settled, failed orders refunded to their wallets, delayed ones scheduled
 * again, the batch's outbox rows deleted; one transaction per batch, committed durably.
 * One batch at a time, so two batches never lock the same wallets in different orders.
 */
export class SettlementWorker {
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  settled = 0;

  constructor(
    private readonly db: PeerDb,
    private readonly batch = 256,
    private readonly pollMs = 500,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.kick(), this.pollMs);
    this.timer.unref();
  }

  /** Called after each order commits: runs now, or once more after the batch in progress. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((error: unknown) => {
        process.stderr.write(`settlement: ${String(error)}\n`);
      })
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  private async drain(): Promise<void> {
    while (!this.stopped && (await this.settleBatch()) === this.batch) this.again = false;
  }

  private settleBatch(): Promise<number> {
    return this.db.transaction(async (query) => {
      const due = await query<DueRow>({
        name: 'crud_claim',
        text: `SELECT b.outbox_id, b.step, o.order_id, o.phone
                 FROM crud_outbox b JOIN crud_orders o ON o.order_id = b.order_id
                WHERE b.due_at <= now()
                ORDER BY b.outbox_id LIMIT $1
                  FOR UPDATE OF b SKIP LOCKED`,
        values: [this.batch],
      });
      if (due.length === 0) return 0;
      const now = new Date();
      const later = new Date(now.getTime() + SANDBOX_DELAY_MS).toISOString();
      const outcomes = due.map((row) => ({ row, outcome: sandboxOutcome(row.step, row.phone) }));
      const final = outcomes
        .filter(({ outcome }) => outcome.kind === 'success' || outcome.kind === 'failure')
        .map(({ row, outcome }) => ({
          order_id: row.order_id,
          status: outcome.kind === 'success' ? 'SUCCESS' : 'FAILED',
          operator_ref: outcome.kind === 'success' ? `SBX-${row.order_id}` : null,
        }));
      const rescheduled = outcomes.flatMap(({ row, outcome }) =>
        outcome.kind === 'later' ? [{ order_id: row.order_id, step: outcome.step }] : [],
      );
      await query({
        name: 'crud_settle',
        text: `WITH done AS (
                 DELETE FROM crud_outbox WHERE outbox_id = ANY($1::bigint[])
               ), outcome AS (
                 SELECT * FROM jsonb_to_recordset($2::jsonb) AS s(order_id text, status text, operator_ref text)
               ), settled AS (
                 UPDATE crud_orders o
                    SET status = s.status, operator_ref = s.operator_ref,
                        settled_at = CASE WHEN s.status = 'SUCCESS' THEN $4::timestamptz END,
                        refunded_at = CASE WHEN s.status = 'FAILED' THEN $4::timestamptz END
                   FROM outcome s
                  WHERE o.order_id = s.order_id AND o.status = 'PENDING'
                 RETURNING o.partner_id, o.environment, o.amount, o.status
               ), refunded AS (
                 UPDATE crud_wallets w SET balance = w.balance + r.total, updated_at = $4::timestamptz
                   FROM (SELECT partner_id, environment, sum(amount) AS total FROM settled
                          WHERE status = 'FAILED' GROUP BY partner_id, environment) r
                  WHERE w.partner_id = r.partner_id AND w.environment = r.environment
               ), scheduled AS (
                 INSERT INTO crud_outbox (order_id, step, due_at)
                 SELECT order_id, step, $5::timestamptz FROM jsonb_to_recordset($3::jsonb) AS l(order_id text, step text)
               )
               SELECT count(*)::int AS settled FROM settled`,
        values: [
          due.map((row) => row.outbox_id),
          JSON.stringify(final),
          JSON.stringify(rescheduled),
          now.toISOString(),
          later,
        ],
      });
      this.settled += final.length;
      return due.length;
    });
  }
}
