import { OrderProduct } from '../../../domain/wallet/order-product';

const HOUR_MS = 60 * 60_000;

/** How long after placement Reloadly may still give its final word (decisions 0117, 0120). */
export const RELOADLY_DELIVERY_HORIZON_MS: Readonly<Record<OrderProduct['kind'], number>> = {
  topup: 24 * HOUR_MS,
  bill_payment: 48 * HOUR_MS,
};
