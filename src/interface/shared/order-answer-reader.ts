import { isCurrency } from '../../domain/money/currency';
import {
  FieldChecks,
  holdsFields,
  isExactly,
  isInteger,
  isText,
  isTextOrNull,
} from '../../application/shared/resource-checks';
import {
  BillPaymentDryRunResource,
  BillPaymentOrderResource,
  BillPaymentPreviewResource,
  OrderDryRunResource,
  OrderResource,
  TopupDryRunResource,
  TopupOrderResource,
  TopupPreviewResource,
} from './order-resources';

/**
 * A placement's answer read back from the bytes it was sent as (and kept as, for replays): checked
 * field by field to be the Order or the dry-run answer that the placement wrote.
 */
export function readOrderAnswer(body: string): OrderResource | OrderDryRunResource {
  const value: unknown = JSON.parse(body);
  if (
    holdsFields(value, TOPUP_ORDER) ||
    holdsFields(value, BILL_PAYMENT_ORDER) ||
    holdsFields(value, TOPUP_DRY_RUN) ||
    holdsFields(value, BILL_PAYMENT_DRY_RUN)
  )
    return value;
  throw new Error('a placement answer is not an Order or a dry-run answer');
}

const MONEY = {
  amount_local: isText,
  currency: isCurrency,
  balance_after: isText,
  reference: isTextOrNull,
};

const TOPUP_PREVIEW: FieldChecks<TopupPreviewResource> = { operator_id: isInteger, phone: isText, ...MONEY };
const BILL_PAYMENT_PREVIEW: FieldChecks<BillPaymentPreviewResource> = {
  biller_id: isInteger,
  consumer_number: isText,
  ...MONEY,
};

const PLACED = { order_id: isText, status: isExactly('PENDING'), created_at: isText };

const TOPUP_ORDER: FieldChecks<TopupOrderResource> = { ...PLACED, ...TOPUP_PREVIEW };
const BILL_PAYMENT_ORDER: FieldChecks<BillPaymentOrderResource> = { ...PLACED, ...BILL_PAYMENT_PREVIEW };

const TOPUP_DRY_RUN: FieldChecks<TopupDryRunResource> = {
  validate_only: isExactly(true),
  would: (value): value is TopupPreviewResource => holdsFields(value, TOPUP_PREVIEW),
};
const BILL_PAYMENT_DRY_RUN: FieldChecks<BillPaymentDryRunResource> = {
  validate_only: isExactly(true),
  would: (value): value is BillPaymentPreviewResource => holdsFields(value, BILL_PAYMENT_PREVIEW),
};
