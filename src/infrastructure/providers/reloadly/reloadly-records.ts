import { decimalText } from './upstream-decimal';

/** Reloadly's transactions, operators, billers and balance, read from its JSON answers (lenient about shapes, exact about amounts). */
/** A topup as Reloadly reports it (send, status and report answers). */
export interface UpstreamTopup {
  /** Null only when a wrapped answer carries no transaction (`{status: "REFUNDED", transaction: null}`) and the id was not asked by. */
  transactionId: string | null;
  status: string;
  /** The `code` and `message` of a wrapped answer ({code, message, status, transaction}), when given. */
  code: string | null;
  message: string | null;
  operatorTransactionId: string | null;
  customIdentifier: string | null;
  operatorId: number | null;
  recipientPhone: string | null;
  requestedAmount: string | null;
  requestedAmountCurrencyCode: string | null;
  deliveredAmount: string | null;
  deliveredAmountCurrencyCode: string | null;
  transactionDate: string | null;
  /** The account's balance after the topup, when the answer carries it. */
  newBalance: string | null;
}

export interface UpstreamPayment {
  /** Null only when a wrapped answer carries no transaction and the id was not asked by. */
  id: string | null;
  status: string;
  referenceId: string | null;
  code: string | null;
  message: string | null;
  amount: string | null;
  amountCurrencyCode: string | null;
  /** "The final amount to be delivered to the subscriber." */
  deliveryAmount: string | null;
  deliveryAmountCurrencyCode: string | null;
  billerId: number | null;
  accountNumber: string | null;
  submittedAt: string | null;
  newBalance: string | null;
}

export interface UpstreamOperator {
  id: number;
  name: string;
  countryCode: string | null;
  supportsLocalAmounts: boolean;
  senderCurrencyCode: string | null;
  destinationCurrencyCode: string | null;
  /** Units of the destination currency per unit of the sender (account) currency. */
  fxRate: string | null;
  localMinAmount: string | null;
  localMaxAmount: string | null;
}

export interface UpstreamBiller {
  id: number;
  name: string;
  countryCode: string | null;
  type: string | null;
  serviceType: string | null;
  localAmountSupported: boolean;
  localTransactionCurrencyCode: string | null;
}

export interface UpstreamBalance {
  balance: string;
  currencyCode: string;
  updatedAt: string | null;
}

export const objectOf = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
export const stringOf = (value: unknown): string | null =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null;
const numberOf = (value: unknown): number | null =>
  typeof value === 'number' && Number.isInteger(value)
    ? value
    : typeof value === 'string' && /^\d+$/.test(value)
      ? Number(value)
      : null;

export function listOf(body: unknown): unknown[] {
  if (Array.isArray(body)) return body;
  const content = objectOf(body).content;
  return Array.isArray(content) ? content : [];
}

/** Whether an answer is the `{code, message, status, transaction}` wrapper of Reloadly's status answers rather than the transaction. */
const isWrapper = (body: Record<string, unknown>): boolean =>
  'transaction' in body && (body.transaction === null || typeof body.transaction === 'object');

/** A topup from any of Reloadly's answers, the transaction or its wrapper; `askedId`: the id the answer was asked by. */
export function topupOf(value: unknown, askedId: string | null = null): UpstreamTopup | null {
  const outer = objectOf(value);
  const wrapped = isWrapper(outer);
  const body = wrapped ? objectOf(outer.transaction) : outer;
  const transactionId = stringOf(body.transactionId) ?? askedId;
  const status = stringOf(wrapped ? (outer.status ?? body.status) : body.status);
  if (status === null || (transactionId === null && !wrapped)) return null;
  return {
    transactionId,
    status,
    code: wrapped ? stringOf(outer.code) : null,
    message: wrapped ? stringOf(outer.message) : null,
    operatorTransactionId: stringOf(body.operatorTransactionId),
    customIdentifier: stringOf(body.customIdentifier),
    operatorId: numberOf(body.operatorId),
    recipientPhone: stringOf(body.recipientPhone),
    requestedAmount: decimalText(body.requestedAmount),
    requestedAmountCurrencyCode: stringOf(body.requestedAmountCurrencyCode),
    deliveredAmount: decimalText(body.deliveredAmount),
    deliveredAmountCurrencyCode: stringOf(body.deliveredAmountCurrencyCode),
    transactionDate: stringOf(body.transactionDate),
    newBalance: decimalText(objectOf(body.balanceInfo).newBalance),
  };
}

/** A payment from the pay answer or a look-up item; `askedId`: the id the answer was asked by. */
export function paymentOf(value: unknown, askedId: string | null = null): UpstreamPayment | null {
  const outer = objectOf(value);
  const wrapped = isWrapper(outer);
  const body = wrapped ? objectOf(outer.transaction) : outer;
  const id = stringOf(body.id) ?? askedId;
  const status = stringOf(body.status ?? (wrapped ? outer.status : null));
  if (status === null || (id === null && !wrapped)) return null;
  const details = objectOf(body.billDetails);
  return {
    id,
    status,
    referenceId: stringOf(body.referenceId),
    code: stringOf(outer.code ?? body.code),
    message: stringOf(outer.message ?? body.message),
    amount: decimalText(body.amount),
    amountCurrencyCode: stringOf(body.amountCurrencyCode),
    deliveryAmount: decimalText(body.deliveryAmount),
    deliveryAmountCurrencyCode: stringOf(body.deliveryAmountCurrencyCode),
    billerId: numberOf(details.billerId),
    accountNumber: stringOf(objectOf(details.subscriberDetails).accountNumber),
    submittedAt: stringOf(body.submittedAt),
    newBalance: decimalText(objectOf(body.balanceInfo).newBalance),
  };
}

export function operatorOf(value: unknown): UpstreamOperator | null {
  const body = objectOf(value);
  const id = numberOf(body.operatorId ?? body.id);
  const name = stringOf(body.name);
  if (id === null || name === null) return null;
  return {
    id,
    name,
    countryCode: stringOf(objectOf(body.country).isoName),
    supportsLocalAmounts: body.supportsLocalAmounts === true,
    senderCurrencyCode: stringOf(body.senderCurrencyCode),
    destinationCurrencyCode: stringOf(body.destinationCurrencyCode),
    fxRate: decimalText(objectOf(body.fx).rate),
    localMinAmount: decimalText(body.localMinAmount),
    localMaxAmount: decimalText(body.localMaxAmount),
  };
}

export function billerOf(value: unknown): UpstreamBiller | null {
  const body = objectOf(value);
  const id = numberOf(body.id);
  const name = stringOf(body.name);
  if (id === null || name === null) return null;
  return {
    id,
    name,
    countryCode: stringOf(body.countryIsoCode ?? body.countryCode),
    type: stringOf(body.type),
    serviceType: stringOf(body.serviceType),
    localAmountSupported: body.localAmountSupported === true,
    // The reference's schema spells it `localTransactionCurencyCode`, its example `localTransactionCurrencyCode`.
    localTransactionCurrencyCode: stringOf(body.localTransactionCurrencyCode ?? body.localTransactionCurencyCode),
  };
}
