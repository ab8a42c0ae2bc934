import {
  BillFetchUnsupportedError,
  OutstandingBill,
  ProviderUnavailableError,
} from '../../../application/ports/provider-gateway.port';
import { istDate } from './setu-identifiers';
import { SetuFetch } from './setu-records';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The bill a successful fetch presents, as bill-info shows it. BBPS's `billPeriod` is a frequency: the period shown is
 * the month of the bill date (else due date). The reference is the biller's bill number; the fetch's refId is kept for
 * the payment.
 */
export function outstandingBillOf(fetched: SetuFetch, billerId: string, now: Date): OutstandingBill {
  if (fetched.bills.length > 1)
    throw new BillFetchUnsupportedError(
      `setu biller ${billerId} presents ${fetched.bills.length} bills at once (a LIST biller); only single bills are paid here`,
    );
  const bill = fetched.bills[0] as SetuFetch['bills'][number] | undefined;
  if (!bill || bill.amount === null)
    throw new BillFetchUnsupportedError(
      `setu biller ${billerId} presents no amount to pay (a validation or ad-hoc biller); a bill payment needs a fetched amount`,
    );
  if (!bill.dueDate || !DATE.test(bill.dueDate))
    throw new ProviderUnavailableError(`setu: the fetched bill ${fetched.refId} has no due date`);
  const periodFrom = bill.billDate && DATE.test(bill.billDate) ? bill.billDate : bill.dueDate;
  return {
    customerName: bill.customerName ?? '',
    amount: bill.amount,
    dueDate: bill.dueDate,
    billPeriod: periodFrom.slice(0, 7),
    billReference: bill.billNumber ?? fetched.billerRefId ?? fetched.refId,
    overdue: bill.dueDate < istDate(now),
    providerBillRef: fetched.refId,
  };
}
