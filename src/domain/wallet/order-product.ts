/** What an order buys: a mobile prepaid topup or a bill payment. Carried by the wallet debit. */
export type OrderProduct =
  | { kind: 'topup'; operatorId: number; phone: string }
  | {
      kind: 'bill_payment';
      billerId: number;
      consumerNumber: string;
      billReference: string | null;
      params: Record<string, string>;
      /** The provider's handle of the fetch this payment pays (Setu's fetch refId); absent where none was given. */
      providerBillRef?: string;
    };

export type OrderKind = OrderProduct['kind'];
