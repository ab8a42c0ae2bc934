import { Currency } from '../money/currency';
import { EventTypeTable, typesOf } from '../shared/event-types';
import { RouteTarget } from '../routing/route';
import { OrderProduct } from './order-product';

/** Amounts in events are plain decimal strings in the wallet currency, readable by finance as they are. */
export type CreditKind = 'sandbox_grant' | 'funding';

export type WalletCredited = {
  type: 'WalletCredited';
  data: {
    creditId: string;
    amount: string;
    currency: Currency;
    balanceAfter: string;
    kind: CreditKind;
    reference: string;
    creditedAt: string;
  };
};

export type WalletDebited = {
  type: 'WalletDebited';
  data: {
    orderId: string;
    amount: string;
    currency: Currency;
    balanceAfter: string;
    reference: string | null;
    /** The partner's Idempotency-Key for the request that placed the order. */
    idempotencyKey: string;
    product: OrderProduct;
    placedAt: string;
    /** Live orders: the provider and upstream id the order was routed to when placed, fixed for every later submission and poll. */
    route?: RouteTarget;
    /** Placed with a restricted key: its id, so the key's rolling daily cap counts the order. */
    scopedKeyId?: string;
    /**
     * The order's own stream was written in this event's commit with the provider's final answer, known without
     * a call (the sandbox's instant outcomes): the order is not submitted.
     */
    answeredWithDebit?: true;
  };
};

export type WalletRefunded = {
  type: 'WalletRefunded';
  data: {
    orderId: string;
    amount: string;
    currency: Currency;
    balanceAfter: string;
    reason: string;
    refundedAt: string;
  };
};

export type WalletEvent = WalletCredited | WalletDebited | WalletRefunded;
export const WALLET_EVENTS: EventTypeTable<WalletEvent> = {
  WalletCredited: true,
  WalletDebited: true,
  WalletRefunded: true,
};
export const WALLET_EVENT_TYPES: ReadonlySet<string> = typesOf(WALLET_EVENTS);
