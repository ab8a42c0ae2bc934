import { ApiSchema } from '@nestjs/swagger';
import { IDEMPOTENCY_KEY_PATTERN } from '../../application/ports/idempotency-store.port';
import { BILLER_CATEGORIES } from '../../application/ports/catalog.port';
import { JsonObject } from '../shared/requests/json-schema';
import { dtoJsonSchema } from '../shared/requests/dto-json-schema';
import { BillInfoDto } from '../shared/requests/bill-info.dto';
import { PayBillDto } from '../shared/requests/pay-bill.dto';
import { TopupDto } from '../shared/requests/topup.dto';
import { ChoiceField, TextField } from '../shared/requests/request-fields';

// Tool inputs: a tool doing what a REST request does takes that request's DTO (plus the idempotency key), so its
// limits, schema and validation come from the DTO (decision 0100); only the descriptions, written for a model,
// are the tools' own. Business rules stay in the application commands.

const CATALOG_CATEGORIES = ['MOBILE_PREPAID', ...BILLER_CATEGORIES] as const;
const LIST_KINDS = ['all', 'operator', 'biller'] as const;

const idempotencyKey = (): PropertyDecorator =>
  TextField(
    {
      minLength: 8,
      maxLength: 255,
      pattern: { regex: IDEMPOTENCY_KEY_PATTERN, message: 'must be 8 to 255 visible ASCII characters, no spaces' },
    },
    { description: 'Your unique key for this payment (the Idempotency-Key header of REST)' },
  );

@ApiSchema({ name: 'GetBalanceToolInput' })
class GetBalanceToolInput {}

@ApiSchema({ name: 'ListOperatorsToolInput' })
export class ListOperatorsToolInput {
  @ChoiceField(LIST_KINDS, { description: 'What to list', default: 'all', optional: true })
  kind?: (typeof LIST_KINDS)[number];

  @ChoiceField(CATALOG_CATEGORIES, { description: 'Only entries of this category', optional: true })
  category?: (typeof CATALOG_CATEGORIES)[number];

  @TextField(
    { minLength: 1, maxLength: 100 },
    { description: 'Only entries whose name or code contains this text', optional: true },
  )
  name?: string;

  @TextField(
    { minLength: 1, maxLength: 20 },
    { description: 'A mobile number to detect its prepaid operator', optional: true },
  )
  phone?: string;
}

@ApiSchema({ name: 'TopupToolInput' })
export class TopupToolInput extends TopupDto {
  @idempotencyKey()
  idempotency_key!: string;
}

@ApiSchema({ name: 'BillInfoToolInput' })
export class BillInfoToolInput extends BillInfoDto {}

@ApiSchema({ name: 'PayBillToolInput' })
export class PayBillToolInput extends PayBillDto {
  @idempotencyKey()
  idempotency_key!: string;
}

@ApiSchema({ name: 'GetTransactionToolInput' })
export class GetTransactionToolInput {
  @TextField({ minLength: 1, maxLength: 100 }, { description: 'The order_id of a topup or bill payment' })
  order_id!: string;
}

const IDEMPOTENCY_KEY =
  'Required. Your unique key for this payment: 8 to 255 visible ASCII characters, no spaces (a fresh UUID is ideal). ' +
  'Make a NEW key for every new payment. To retry the SAME payment (after a timeout, an error or an unclear answer) reuse the SAME key with the SAME arguments: ' +
  'you get the first result back (replayed: true) and the wallet is never debited twice. The same key with different arguments is refused (idempotency_conflict). Keys are remembered for 24 hours.';
const VALIDATE_ONLY =
  'Optional. Dry run: true runs every check of the payment and answers {validate_only: true, would: {...}} without moving money or using up the idempotency_key.';
const REFERENCE =
  "Optional. The partner's own reference (at most 100 characters), echoed back in the order, the transaction status and webhooks.";
const BILLER_ID =
  'The biller id (integer) from service_list_operators with kind "biller", e.g. 1005. It must be a biller of your corridor.';
const CONSUMER_NUMBER =
  'The consumer, account or mobile number the biller knows the customer by (3 to 40 letters, digits, spaces, dashes or slashes), e.g. "1234560001".';
const BILLER_PARAMS =
  'Optional. Extra fields some billers require, as names to string values, e.g. {"billing_unit": "4567"}. ' +
  'The names a biller takes (and which are required) are its "params" in service_list_operators. Omit when the biller lists none.';

/** The descriptions an agent reads, by field: they name tools where REST's name routes. */
const AGENT_DESCRIPTIONS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  service_get_balance: {},
  service_list_operators: {
    kind: 'What to list: "operator" = mobile prepaid operators (for service_topup), "biller" = billers for postpaid mobile, utility and BBPS bills (for service_get_bill_info and service_pay_bill), "all" = both. Default "all".',
    category:
      'Optional. Only entries of this category. Prepaid operators all have category MOBILE_PREPAID; the other values are biller categories.',
    name: 'Optional. Only entries whose name or code contains this text, ignoring case (e.g. "airtel").',
    phone:
      'Optional. A mobile number to detect its prepaid operator: only the operator that owns the number is returned (and no billers). ' +
      'The country code may be left out when it is that of your corridor, e.g. "+919876540001" or "9876540001". Ported numbers may be misdetected.',
  },
  service_topup: {
    operator_id:
      'The operator id (integer) from service_list_operators, e.g. 101. It must be an operator of your corridor.',
    phone:
      'The mobile number to recharge, e.g. "+919876540001". The country code may be left out when it is that of your corridor.',
    amount:
      "The recharge amount in your corridor's currency (INR, BDT or SGD), as a JSON number with at most 2 decimal places, e.g. 100 or 149.50. " +
      "It must lie within the operator's min_amount and max_amount from service_list_operators. No currency conversion is done.",
    reference: REFERENCE,
    idempotency_key: IDEMPOTENCY_KEY,
    validate_only: VALIDATE_ONLY,
  },
  service_get_bill_info: { biller_id: BILLER_ID, consumer_number: CONSUMER_NUMBER, params: BILLER_PARAMS },
  service_pay_bill: {
    biller_id: BILLER_ID,
    consumer_number: CONSUMER_NUMBER,
    amount:
      'The amount to pay, as a JSON number: the "amount" that service_get_bill_info returned for this biller_id and consumer_number (e.g. 500 for "500.00"). ' +
      'It must match that fetched bill within 1 unit of the currency, otherwise the payment is refused with amount_out_of_range.',
    params: BILLER_PARAMS,
    reference: REFERENCE,
    idempotency_key: IDEMPOTENCY_KEY,
    validate_only: VALIDATE_ONLY,
  },
  service_get_transaction: {
    order_id: 'The order_id returned by service_topup or service_pay_bill, e.g. "ord_5f2c9a0e1b7d4c3a9e8f6a21".',
  },
};

/** Each tool's input class by tool name: what its calls are validated through, and what its schema is derived from. */
export const TOOL_INPUTS = {
  service_get_balance: GetBalanceToolInput,
  service_list_operators: ListOperatorsToolInput,
  service_topup: TopupToolInput,
  service_get_bill_info: BillInfoToolInput,
  service_pay_bill: PayBillToolInput,
  service_get_transaction: GetTransactionToolInput,
} as const;

export type ToolName = keyof typeof TOOL_INPUTS;

export const isToolName = (name: string): name is ToolName => Object.hasOwn(TOOL_INPUTS, name);

/** A tool's input schema: its input class's JSON Schema with the agent's descriptions over the DTO's. */
function toolInputSchema(
  input: abstract new () => object,
  descriptions: Readonly<Record<string, string>> = {},
): JsonObject {
  const schema = dtoJsonSchema(input);
  const properties = schema.properties as Record<string, JsonObject>;
  for (const [name, description] of Object.entries(descriptions)) {
    if (!properties[name]) throw new Error(`${input.name} has no field ${name} to describe`);
    const { examples: _dtoExamples, ...limits } = properties[name];
    properties[name] = { ...limits, description };
  }
  return schema;
}

export const toolSchemaOf = (tool: ToolName): JsonObject =>
  toolInputSchema(TOOL_INPUTS[tool], AGENT_DESCRIPTIONS[tool]);
