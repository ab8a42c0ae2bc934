import * as z from 'zod/v4';
import { BillerCategory } from '../../application/ports/catalog.port';

/**
 * Input schemas of the agent tools. They are the tools' published JSON Schema (every field
 * carries a description a model can act on) and the SDK checks each call against them
 * before a tool runs. The limits are those of the REST DTOs; the business rules (phone
 * format, amount range, decimals, bill match) stay in the application commands.
 */

export const BILLER_CATEGORIES = [
  'POSTPAID_MOBILE',
  'ELECTRICITY',
  'WATER',
  'GAS',
  'BROADBAND',
  'DTH',
  'LANDLINE',
  'INSURANCE',
  'CREDIT_CARD',
] as const satisfies readonly BillerCategory[];
// Fails to compile when the catalog gains a biller category this list does not name.
const everyBillerCategoryListed: BillerCategory extends (typeof BILLER_CATEGORIES)[number] ? true : never = true;
void everyBillerCategoryListed;

export const CATALOG_CATEGORIES = ['MOBILE_PREPAID', ...BILLER_CATEGORIES] as const;

const MAX_ID = 2_147_483_647;

const idempotencyKey = z
  .string()
  .min(8)
  .max(255)
  .regex(/^[\x21-\x7e]+$/)
  .describe(
    'Required. Your unique key for this payment: 8 to 255 visible ASCII characters, no spaces (a fresh UUID is ideal). ' +
      'Make a NEW key for every new payment. To retry the SAME payment (after a timeout, an error or an unclear answer) reuse the SAME key with the SAME arguments: ' +
      'you get the first result back (replayed: true) and the wallet is never debited twice. The same key with different arguments is refused (idempotency_conflict). Keys are remembered for 24 hours.',
  );

const reference = z
  .string()
  .max(100)
  .describe("Optional. The partner's own reference (at most 100 characters), echoed back in the order, the transaction status and webhooks.");

export const getBalanceInput = z.strictObject({});

export const listOperatorsInput = z.strictObject({
  kind: z
    .enum(['all', 'operator', 'biller'])
    .default('all')
    .describe(
      'What to list: "operator" = mobile prepaid operators (for service_topup), "biller" = billers for postpaid mobile, utility and BBPS bills (for service_get_bill_info and service_pay_bill), "all" = both. Default "all".',
    ),
  category: z
    .enum(CATALOG_CATEGORIES)
    .optional()
    .describe('Optional. Only entries of this category. Prepaid operators all have category MOBILE_PREPAID; the other values are biller categories.'),
  name: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe('Optional. Only entries whose name or code contains this text, ignoring case (e.g. "airtel").'),
  phone: z
    .string()
    .min(1)
    .max(20)
    .optional()
    .describe(
      'Optional. A mobile number to detect its prepaid operator: only the operator that owns the number is returned (and no billers). ' +
        'The country code may be left out when it is that of your corridor, e.g. "+919876540001" or "9876540001". Ported numbers may be misdetected.',
    ),
});

const validateOnly = z
  .boolean()
  .optional()
  .describe('Dry run: true runs every check and answers {validate_only: true, would: {...}} without moving money or using up the idempotency_key.');

export const topupInput = z.strictObject({
  operator_id: z
    .number()
    .int()
    .min(1)
    .max(MAX_ID)
    .describe('The operator id (integer) from service_list_operators, e.g. 101. It must be an operator of your corridor.'),
  phone: z
    .string()
    .min(1)
    .max(20)
    .describe('The mobile number to recharge, e.g. "+919876540001". The country code may be left out when it is that of your corridor.'),
  amount: z
    .number()
    .positive()
    .describe(
      "The recharge amount in your corridor's currency (INR, BDT or SGD), as a JSON number with at most 2 decimal places, e.g. 100 or 149.50. " +
        "It must lie within the operator's min_amount and max_amount from service_list_operators. No currency conversion is done.",
    ),
  reference: reference.optional(),
  idempotency_key: idempotencyKey,
  validate_only: validateOnly,
});

const billerId = z
  .number()
  .int()
  .min(1)
  .max(MAX_ID)
  .describe('The biller id (integer) from service_list_operators with kind "biller", e.g. 1005. It must be a biller of your corridor.');

const consumerNumber = z
  .string()
  .min(1)
  .max(40)
  .describe("The consumer, account or mobile number the biller knows the customer by (3 to 40 letters, digits, spaces, dashes or slashes), e.g. \"1234560001\".");

const billerParams = z
  .record(z.string(), z.string().max(100))
  .optional()
  .describe(
    'Optional. Extra fields some billers require, as names to string values, e.g. {"billing_unit": "4567"}. ' +
      'The names a biller takes (and which are required) are its "params" in service_list_operators. Omit when the biller lists none.',
  );

export const billInfoInput = z.strictObject({
  biller_id: billerId,
  consumer_number: consumerNumber,
  params: billerParams,
});

export const payBillInput = z.strictObject({
  biller_id: billerId,
  consumer_number: consumerNumber,
  amount: z
    .number()
    .positive()
    .describe(
      'The amount to pay, as a JSON number: the "amount" that service_get_bill_info returned for this biller_id and consumer_number (e.g. 500 for "500.00"). ' +
        'It must match that fetched bill within 1 unit of the currency, otherwise the payment is refused with amount_out_of_range.',
    ),
  params: billerParams,
  reference: reference.optional(),
  idempotency_key: idempotencyKey,
  validate_only: validateOnly,
});

export const getTransactionInput = z.strictObject({
  order_id: z
    .string()
    .min(1)
    .max(100)
    .describe('The order_id returned by service_topup or service_pay_bill, e.g. "ord_5f2c9a0e1b7d4c3a9e8f6a21".'),
});

export type ListOperatorsArgs = z.infer<typeof listOperatorsInput>;
export type TopupArgs = z.infer<typeof topupInput>;
export type BillInfoArgs = z.infer<typeof billInfoInput>;
export type PayBillArgs = z.infer<typeof payBillInput>;
export type GetTransactionArgs = z.infer<typeof getTransactionInput>;

/** Each tool's input schema by tool name: what the SDK checks a call against, and what the endpoint checks first. */
export const TOOL_INPUTS: Readonly<Record<string, z.ZodType>> = {
  service_get_balance: getBalanceInput,
  service_list_operators: listOperatorsInput,
  service_topup: topupInput,
  service_get_bill_info: billInfoInput,
  service_pay_bill: payBillInput,
  service_get_transaction: getTransactionInput,
};
