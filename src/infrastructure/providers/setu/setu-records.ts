import { rupeesOf } from './setu-money';

/**
 * Setu's answers read into typed records: lenient about shapes (a missing field is null), exact
 * about amounts (integer paise read as rupee texts). Field names are those of Setu's BillPay v2
 * OpenAPI (and the v1 names its v2 migration guide replaced, where an answer still uses them).
 */

/** An error as Setu writes it: `{code, message}` (webhooks also use `Code`/`Message`). */
interface SetuError {
  code: string | null;
  message: string | null;
}

/** Why a fetch or a payment failed (`failureReason`): `type` is APP, BBPS or FUND_TRANSFER. */
export interface SetuFailure {
  code: string | null;
  message: string | null;
  type: string | null;
}

interface SetuBill {
  amount: string | null;
  billDate: string | null;
  billNumber: string | null;
  billPeriod: string | null;
  customerName: string | null;
  dueDate: string | null;
}

export interface SetuFetch {
  refId: string;
  status: string;
  failure: SetuFailure | null;
  bills: SetuBill[];
  billerRefId: string | null;
  exactness: string | null;
}

export interface SetuPayment {
  refId: string;
  status: string;
  transactionId: string | null;
  billerId: string | null;
  billerRefId: string | null;
  paymentRefId: string | null;
  amount: string | null;
  timestamp: string | null;
  failure: SetuFailure | null;
}

export interface SetuTransaction {
  refId: string | null;
  /** Processing, Success, Error (or Credit_Adjustment): the list says Error where a payment answer says Failure. */
  status: string;
  transactionId: string | null;
  paymentRefId: string | null;
  billerId: string | null;
  amount: string | null;
  timestamp: string | null;
}

interface SetuCustomerParam {
  paramName: string;
  optional: boolean;
}

export interface SetuBiller {
  id: string;
  name: string;
  categoryName: string | null;
  /** BILL_FETCH, BILL_VALIDATE or BILL_DIRECT. */
  fetchApiType: string | null;
  customerParams: SetuCustomerParam[];
  /** The customer convenience fee it charges on top of the bill, described; null when it charges none. */
  customerFee: string | null;
}

export function objectOf(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? (value as unknown[]) : [];
}

export const stringOf = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

export function errorOf(body: unknown): SetuError {
  const error = objectOf(objectOf(body).error);
  return {
    code: stringOf(error.code) ?? stringOf(error.Code),
    message: stringOf(error.message) ?? stringOf(error.Message),
  };
}

function failureOf(value: unknown): SetuFailure | null {
  if (!value || typeof value !== 'object') return null;
  const failure = objectOf(value);
  return { code: stringOf(failure.code), message: stringOf(failure.message), type: stringOf(failure.type) };
}

function billOf(value: unknown): SetuBill {
  const bill = objectOf(value);
  return {
    amount: rupeesOf(bill.amount),
    billDate: stringOf(bill.billDate),
    billNumber: stringOf(bill.billNumber),
    billPeriod: stringOf(bill.billPeriod),
    customerName: stringOf(bill.customerName),
    dueDate: stringOf(bill.dueDate),
  };
}

export function fetchOf(data: Record<string, unknown>): SetuFetch | null {
  const refId = stringOf(data.refId);
  const status = stringOf(data.status);
  if (!refId || !status) return null;
  // v2 answers `bills[]`; a v1-shaped answer has one `bill`.
  const bills = Array.isArray(data.bills) ? listOf(data.bills).map(billOf) : data.bill ? [billOf(data.bill)] : [];
  return {
    refId,
    status,
    failure: failureOf(data.failureReason),
    bills,
    billerRefId: stringOf(data.billerRefId),
    exactness: stringOf(data.exactness),
  };
}

export function paymentOf(data: Record<string, unknown>): SetuPayment | null {
  const refId = stringOf(data.refId);
  const status = stringOf(data.status);
  if (!refId || !status) return null;
  const details = objectOf(data.paymentDetails);
  return {
    refId,
    status,
    transactionId: stringOf(data.transactionId),
    billerId: stringOf(data.billerId),
    billerRefId: stringOf(data.billerRefId),
    paymentRefId: stringOf(details.paymentRefId),
    amount: rupeesOf(details.amount),
    timestamp: stringOf(details.timestamp),
    failure: failureOf(data.failureReason),
  };
}

export function transactionOf(value: unknown): SetuTransaction | null {
  const item = objectOf(value);
  const status = stringOf(item.status);
  if (!status) return null;
  return {
    refId: stringOf(item.refId),
    status,
    transactionId: stringOf(item.transactionId),
    // v1 called it partnerRefId.
    paymentRefId: stringOf(item.paymentRefId) ?? stringOf(item.partnerRefId),
    billerId: stringOf(item.billerId) ?? stringOf(objectOf(item.biller).id),
    amount: rupeesOf(item.amount),
    timestamp: stringOf(item.timestamp),
  };
}

export function billerOf(value: unknown): SetuBiller | null {
  const item = objectOf(value);
  const id = stringOf(item.id);
  const name = stringOf(item.name);
  if (!id || !name) return null;
  return {
    id,
    name,
    categoryName: stringOf(item.categoryName),
    fetchApiType: stringOf(item.fetchApiType),
    customerParams: listOf(item.customerParams).flatMap((entry) => {
      const param = objectOf(entry);
      const paramName = stringOf(param.paramName);
      return paramName ? [{ paramName, optional: param.optional === true }] : [];
    }),
    customerFee: customerFeeOf(item.interchangeFee),
  };
}

const isZero = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  value === 0 ||
  (typeof value === 'string' && /^0+(\.0+)?$/.test(value.trim()));

/**
 * The customer convenience fee of a biller's `interchangeFee` entries: a `CCF1` entry of direction `C2B` whose
 * flat or percent fee is not zero (SetuHQ/docs, paying-bills/customer-convenience-fee.mdx); other fees (EBF,
 * PBF, B2C) are not the customer's. Entries that cannot be read are taken as a fee: a fee must never be missed.
 */
export function customerFeeOf(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) return 'an interchangeFee that cannot be read';
  for (const entry of value as unknown[]) {
    const fee = objectOf(entry);
    if (fee.feeCode !== 'CCF1' || fee.feeDirection !== 'C2B') continue;
    const details = objectOf(fee.interchangeFeeDetails);
    if (isZero(details.flatFee) && isZero(details.percentFee)) continue;
    return `CCF1 (C2B) flatFee ${JSON.stringify(details.flatFee ?? 0)} paise, percentFee ${JSON.stringify(details.percentFee ?? 0)} %, plus GST`;
  }
  return null;
}

/**
 * Where a list goes on after this page (its `nextPage`, a path with an `after` cursor in its query): `last` when
 * there is no next page, `after` its cursor, or `unreadable` when a next page is named but no cursor can be read
 * from it (the list cannot then be read whole).
 */
export function nextPageOf(
  data: Record<string, unknown>,
): { kind: 'last' } | { kind: 'after'; after: string } | { kind: 'unreadable'; nextPage: string } {
  const nextPage = data.nextPage;
  if (nextPage === undefined || nextPage === null || nextPage === '') return { kind: 'last' };
  if (typeof nextPage !== 'string') return { kind: 'unreadable', nextPage: JSON.stringify(nextPage) };
  try {
    const after = new URL(nextPage, 'http://setu.invalid').searchParams.get('after');
    return after ? { kind: 'after', after } : { kind: 'unreadable', nextPage };
  } catch {
    return { kind: 'unreadable', nextPage };
  }
}
