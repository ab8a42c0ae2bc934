import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode } from '../../application/shared/service-error';

export type Structured = Record<string, unknown>;

/** A successful tool result: the resource as structuredContent, and a short summary for the model to read. */
export function toolSuccess(structured: Structured, summary: string): CallToolResult {
  return { content: [{ type: 'text', text: summary }], structuredContent: structured };
}

/**
 * A refusal as a tool result, never as a protocol error: the interface's Error body
 * (`error` code and `detail`) as structuredContent, and "<code>: <detail>" as text.
 */
export function toolError(code: ErrorCode, detail: string | null, hint?: string): CallToolResult {
  const text = detail ? `${code}: ${detail}` : code;
  return {
    isError: true,
    content: [{ type: 'text', text: hint ? `${text}\n${hint}` : text }],
    structuredContent: { error: code, detail, ...(hint ? { hint } : {}) },
  };
}

/** Reads the stored Order body of a placement (kept as first sent, so replays are identical). */
export function parseJsonObject(body: string): Structured {
  const parsed: unknown = JSON.parse(body);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new Error('a stored order body is not a JSON object');
  return parsed as Structured;
}

export const field = (object: Structured, name: string): string => {
  const value = object[name];
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- structured fields hold scalars
  return value === null || value === undefined ? '' : String(value);
};

export const list = (object: Structured, name: string): Structured[] => {
  const value = object[name];
  return Array.isArray(value)
    ? value.filter((entry): entry is Structured => entry !== null && typeof entry === 'object')
    : [];
};

export function balanceSummary(balance: Structured): string {
  return `Wallet balance: ${field(balance, 'available')} ${field(balance, 'currency')} available (${field(balance, 'environment')}, corridor ${field(balance, 'corridor')}, as of ${field(balance, 'updated_at')}).`;
}

export function catalogSummary(catalog: Structured): string {
  const currency = field(catalog, 'currency');
  const operators = list(catalog, 'operators');
  const billers = list(catalog, 'billers');
  const lines = [
    ...operators.map(
      (op) =>
        `- operator ${field(op, 'id')} ${field(op, 'name')} (${field(op, 'category')}), amount ${field(op, 'min_amount')} to ${field(op, 'max_amount')} ${currency}`,
    ),
    ...billers.map((biller) => {
      const params = list(biller, 'params').map(
        (param) => `${field(param, 'name')}${param.required === true ? ' (required)' : ''}`,
      );
      return `- biller ${field(biller, 'id')} ${field(biller, 'name')} (${field(biller, 'category')}${biller.bbps === true ? ', BBPS' : ''})${params.length ? `, params: ${params.join(', ')}` : ''}`;
    }),
  ];
  const phone = field(catalog, 'phone');
  const head = phone
    ? operators.length
      ? `Operator detected for ${phone} in ${field(catalog, 'corridor')}:`
      : `No operator of the ${field(catalog, 'corridor')} corridor owns the number range of ${phone}; pick one from the full operator list.`
    : `${operators.length} operator(s) and ${billers.length} biller(s) in corridor ${field(catalog, 'corridor')} (${currency}):`;
  return [head, ...lines].join('\n');
}

export function orderSummary(order: Structured, replayed: boolean): string {
  const target =
    order.phone !== undefined
      ? `topup of ${field(order, 'phone')} (operator ${field(order, 'operator_id')})`
      : `bill payment for consumer ${field(order, 'consumer_number')} (biller ${field(order, 'biller_id')})`;
  const replay = replayed ? 'Replay of the earlier call with this idempotency_key: no new debit was made. ' : '';
  return (
    `${replay}Order ${field(order, 'order_id')} ${field(order, 'status')}: ${target}, ${field(order, 'amount_local')} ${field(order, 'currency')} debited; ` +
    `wallet balance after the debit ${field(order, 'balance_after')} ${field(order, 'currency')}. ` +
    `The outcome is not final yet: check it with service_get_transaction (order_id ${field(order, 'order_id')}).`
  );
}

export function billSummary(bill: Structured): string {
  const amount = field(bill, 'amount');
  const due = Number(amount) > 0;
  return (
    `${field(bill, 'biller_name')} bill for ${field(bill, 'customer_name')} (consumer ${field(bill, 'consumer_number')}): ` +
    `${amount} ${field(bill, 'currency')} outstanding, due ${field(bill, 'due_date')}, period ${field(bill, 'bill_period')}. ` +
    (due
      ? `To pay it, call service_pay_bill with biller_id ${field(bill, 'biller_id')}, consumer_number "${field(bill, 'consumer_number')}" and amount ${amount}.`
      : 'Nothing is due; there is nothing to pay.')
  );
}

export function transactionSummary(status: Structured): string {
  const head = `Order ${field(status, 'order_id')}: ${field(status, 'status')}, ${field(status, 'amount_local')} ${field(status, 'currency')}`;
  switch (status.status) {
    case 'SUCCESS':
      return `${head}; settled at ${field(status, 'settled_at')}, operator reference ${field(status, 'operator_ref')}.`;
    case 'FAILED':
      return status.refunded_at
        ? `${head}; the provider failed it and the wallet was refunded at ${field(status, 'refunded_at')}.`
        : `${head}; the provider failed it.`;
    default:
      return `${head}; not settled yet. The wallet stays debited while it is PENDING; check again later (it is never refunded automatically unless it FAILS).`;
  }
}
