import { BillFetchStore, FetchedBill } from '../../application/ports/bill-fetch-store.port';
import { Currency } from '../../domain/money/currency';
import { Environment } from '../../domain/shared/environment';
import { SchemaScript } from '../sql/migrations';
import { SqlExecutor } from '../sql/sql-database';

export const BILL_FETCHES_SCHEMA: SchemaScript = {
  name: 'bill-fetches',
  sql: `
CREATE TABLE IF NOT EXISTS bill_fetches (
  partner_id text NOT NULL,
  environment text NOT NULL,
  biller_id integer NOT NULL,
  consumer_number text NOT NULL,
  amount numeric(20, 4) NOT NULL,
  currency text NOT NULL,
  bill_reference text NOT NULL,
  fetched_at timestamptz NOT NULL,
  PRIMARY KEY (partner_id, environment, biller_id, consumer_number)
);
`,
};

/** Migration 6: the provider's handle of a fetch, which its payment must name (Setu's fetch refId). */
export const BILL_FETCH_PROVIDER_REF_SCHEMA: SchemaScript = {
  name: 'bill-fetch-provider-ref',
  sql: `
ALTER TABLE bill_fetches ADD COLUMN IF NOT EXISTS provider_bill_ref text;
`,
};

export class SqlBillFetchStore implements BillFetchStore {
  constructor(private readonly db: SqlExecutor) {}

  async save(bill: FetchedBill): Promise<void> {
    await this.db.query(
      `INSERT INTO bill_fetches (partner_id, environment, biller_id, consumer_number, amount, currency, bill_reference, fetched_at, provider_bill_ref)
       VALUES ($1, $2, $3, $4, $5::numeric, $6, $7, $8, $9)
       ON CONFLICT (partner_id, environment, biller_id, consumer_number) DO UPDATE
         SET amount = EXCLUDED.amount, currency = EXCLUDED.currency, bill_reference = EXCLUDED.bill_reference,
             fetched_at = EXCLUDED.fetched_at, provider_bill_ref = EXCLUDED.provider_bill_ref`,
      [
        bill.partnerId,
        bill.environment,
        bill.billerId,
        bill.consumerNumber,
        bill.amount,
        bill.currency,
        bill.billReference,
        bill.fetchedAt,
        bill.providerBillRef ?? null,
      ],
    );
  }

  async latest(
    partnerId: string,
    environment: Environment,
    billerId: number,
    consumerNumber: string,
  ): Promise<FetchedBill | null> {
    const rows = await this.db.query<{
      amount: string;
      currency: Currency;
      bill_reference: string;
      fetched_at: Date | string;
      provider_bill_ref: string | null;
    }>(
      `SELECT amount::text AS amount, currency, bill_reference, fetched_at, provider_bill_ref FROM bill_fetches
        WHERE partner_id = $1 AND environment = $2 AND biller_id = $3 AND consumer_number = $4`,
      [partnerId, environment, billerId, consumerNumber],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      partnerId,
      environment,
      billerId,
      consumerNumber,
      amount: row.amount,
      currency: row.currency,
      billReference: row.bill_reference,
      fetchedAt: new Date(row.fetched_at).toISOString(),
      providerBillRef: row.provider_bill_ref,
    };
  }
}
