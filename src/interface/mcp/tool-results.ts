import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BillInfoResource } from '../shared/bill-resources';
import { BillerResource, CorridorListFields, OperatorResource } from '../shared/catalog-resources';
import { OrderDryRunResource, OrderResource, TransactionStatusResource } from '../shared/order-resources';
import { ErrorCode } from '../../application/shared/service-error';
import { BalanceResource } from '../shared/balance-resources';

/** What service_list_operators answers: the entries of the REST lists, operators and billers together. */
export interface CatalogToolResource extends CorridorListFields {
  /** The queried phone in E.164, present when a phone was given. */
  phone?: string;
  operators: OperatorResource[];
  billers: BillerResource[];
}

/** What service_topup and service_pay_bill answer: the Order exactly as REST sends it, and whether it is a replay. */
export type PlacedOrderToolResource = OrderResource & { replayed: boolean };

/** What a tool answers: the resource of the use case it runs, as REST answers it (the catalog: both lists). */
export type ToolResource =
  | BalanceResource
  | CatalogToolResource
  | BillInfoResource
  | PlacedOrderToolResource
  | OrderDryRunResource
  | TransactionStatusResource;

/** A successful tool result: the resource as structuredContent, and a short summary for the model to read. */
export function toolSuccess(resource: ToolResource, summary: string): CallToolResult {
  return { content: [{ type: 'text', text: summary }], structuredContent: { ...resource } };
}

/** A refusal as a tool result, never a protocol error: the Error body as structuredContent, "<code>: <detail>" as text. */
export function toolError(code: ErrorCode, detail: string | null, hint?: string): CallToolResult {
  const text = detail ? `${code}: ${detail}` : code;
  return {
    isError: true,
    content: [{ type: 'text', text: hint ? `${text}\n${hint}` : text }],
    structuredContent: { error: code, detail, ...(hint ? { hint } : {}) },
  };
}

export function balanceSummary(balance: BalanceResource): string {
  return `Wallet balance: ${balance.available} ${balance.currency} available (${balance.environment}, corridor ${balance.corridor}, as of ${balance.updated_at}).`;
}

export function catalogSummary(catalog: CatalogToolResource): string {
  const { currency, operators, billers } = catalog;
  const lines = [
    ...operators.map(
      (op) =>
        `- operator ${op.id} ${op.name} (${op.category}), amount ${op.min_amount} to ${op.max_amount} ${currency}`,
    ),
    ...billers.map((biller) => {
      const params = biller.params.map((param) => `${param.name}${param.required ? ' (required)' : ''}`);
      return `- biller ${biller.id} ${biller.name} (${biller.category}${biller.bbps ? ', BBPS' : ''})${params.length ? `, params: ${params.join(', ')}` : ''}`;
    }),
  ];
  const phone = catalog.phone ?? '';
  const head = phone
    ? operators.length
      ? `Operator detected for ${phone} in ${catalog.corridor}:`
      : `No operator of the ${catalog.corridor} corridor owns the number range of ${phone}; pick one from the full operator list.`
    : `${operators.length} operator(s) and ${billers.length} biller(s) in corridor ${catalog.corridor} (${currency}):`;
  return [head, ...lines].join('\n');
}

export function orderSummary(order: OrderResource, replayed: boolean): string {
  const target =
    'phone' in order
      ? `topup of ${order.phone} (operator ${order.operator_id})`
      : `bill payment for consumer ${order.consumer_number} (biller ${order.biller_id})`;
  const replay = replayed ? 'Replay of the earlier call with this idempotency_key: no new debit was made. ' : '';
  return (
    `${replay}Order ${order.order_id} ${order.status}: ${target}, ${order.amount_local} ${order.currency} debited; ` +
    `wallet balance after the debit ${order.balance_after} ${order.currency}. ` +
    `The outcome is not final yet: check it with service_get_transaction (order_id ${order.order_id}).`
  );
}

export function billSummary(bill: BillInfoResource): string {
  const due = Number(bill.amount) > 0;
  return (
    `${bill.biller_name} bill for ${bill.customer_name} (consumer ${bill.consumer_number}): ` +
    `${bill.amount} ${bill.currency} outstanding, due ${bill.due_date}, period ${bill.bill_period}. ` +
    (due
      ? `To pay it, call service_pay_bill with biller_id ${bill.biller_id}, consumer_number "${bill.consumer_number}" and amount ${bill.amount}.`
      : 'Nothing is due; there is nothing to pay.')
  );
}

export function transactionSummary(status: TransactionStatusResource): string {
  const head = `Order ${status.order_id}: ${status.status}, ${status.amount_local} ${status.currency}`;
  switch (status.status) {
    case 'SUCCESS':
      return `${head}; settled at ${status.settled_at ?? ''}, operator reference ${status.operator_ref ?? ''}.`;
    case 'FAILED':
      return status.refunded_at
        ? `${head}; the provider failed it and the wallet was refunded at ${status.refunded_at}.`
        : `${head}; the provider failed it.`;
    default:
      return `${head}; not settled yet. The wallet stays debited while it is PENDING; check again later (it is never refunded automatically unless it FAILS).`;
  }
}
