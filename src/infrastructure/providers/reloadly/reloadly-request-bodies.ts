export interface TopupRequest {
  operatorId: number;
  amount: string;
  useLocalAmount: boolean;
  customIdentifier: string;
  recipientPhone: { countryCode: string; number: string };
}

export interface BillPaymentRequest {
  billerId: number;
  subscriberAccountNumber: string;
  amount: string;
  useLocalAmount: boolean;
  referenceId: string;
}

const AMOUNT_MARK = '\u0000amount\u0000';

/** JSON with the amount written as the exact decimal literal it is, never through a float. */
function withDecimal(body: Record<string, unknown>, amount: string): string {
  if (!/^\d+(\.\d+)?$/.test(amount)) throw new Error(`not a decimal amount: ${amount}`);
  return JSON.stringify(body).replace(JSON.stringify(AMOUNT_MARK), amount);
}

export function topupJson(request: TopupRequest): string {
  return withDecimal(
    {
      operatorId: request.operatorId,
      amount: AMOUNT_MARK,
      useLocalAmount: request.useLocalAmount,
      customIdentifier: request.customIdentifier,
      recipientPhone: request.recipientPhone,
    },
    request.amount,
  );
}

export function billPaymentJson(request: BillPaymentRequest): string {
  return withDecimal(
    {
      subscriberAccountNumber: request.subscriberAccountNumber,
      amount: AMOUNT_MARK,
      billerId: request.billerId,
      useLocalAmount: request.useLocalAmount,
      referenceId: request.referenceId,
    },
    request.amount,
  );
}
