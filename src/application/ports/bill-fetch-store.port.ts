import { Currency } from '../../domain/money/currency';
import { Environment } from '../../domain/shared/environment';

/** A bill fetched by POST /bill-info: pay-bill must match its amount within one unit. */
export interface FetchedBill {
  partnerId: string;
  environment: Environment;
  billerId: number;
  consumerNumber: string;
  amount: string;
  currency: Currency;
  billReference: string;
  fetchedAt: string;
  /** The provider's handle of the fetch, which the payment must name (Setu's fetch refId); null or absent where none. */
  providerBillRef?: string | null;
}

export interface BillFetchStore {
  save(bill: FetchedBill): Promise<void>;
  latest(
    partnerId: string,
    environment: Environment,
    billerId: number,
    consumerNumber: string,
  ): Promise<FetchedBill | null>;
}

export const BILL_FETCH_STORE = Symbol('BillFetchStore');
