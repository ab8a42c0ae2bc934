import type { BillInfo } from '../../application/orders/fetch-bill';
import { Currency } from '../../domain/money/currency';

/** The BillInfo resource: the outstanding bill, step 1 of a bill payment. */
export interface BillInfoResource {
  biller_id: number;
  biller_name: string;
  consumer_number: string;
  customer_name: string;
  amount: string;
  currency: Currency;
  due_date: string;
  bill_period: string;
  bill_reference: string;
  fetched_at: string;
  /** A hint to submit the amount through pay-bill. */
  instructions: string;
}

/** `payWith` names how the partner pays: POST /pay-bill over REST, the service_pay_bill tool over MCP. */
export function billInfoResource(bill: BillInfo, payWith: string): BillInfoResource {
  const amount = bill.amount.toDecimal();
  const currency = bill.amount.currency;
  return {
    biller_id: bill.billerId,
    biller_name: bill.billerName,
    consumer_number: bill.consumerNumber,
    customer_name: bill.customerName,
    amount,
    currency,
    due_date: bill.dueDate,
    bill_period: bill.billPeriod,
    bill_reference: bill.billReference,
    fetched_at: bill.fetchedAt,
    instructions: bill.amount.isPositive()
      ? `Submit ${amount} ${currency} with ${payWith} for biller_id ${bill.billerId} and this consumer_number.`
      : 'Nothing is due on this bill; there is nothing to pay.',
  };
}
