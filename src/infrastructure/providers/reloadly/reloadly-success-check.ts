import { ProviderOrder } from '../../../application/ports/provider-gateway.port';
import { UpstreamPayment, UpstreamTopup } from './reloadly-records';
import { scaled } from './upstream-decimal';

type ProviderOrderAmount = Pick<ProviderOrder, 'orderId' | 'amount' | 'currency'>;

/**
 * Why a SUCCESSFUL topup (sent as a local amount, no FX) is not the order, or null; `requestedAmount` is compared only
 * in the order's currency, more delivered is a bonus (docs/decisions/0120-reloadly-absence-after-the-horizon.md).
 */
export function topupMismatch(order: ProviderOrderAmount, topup: UpstreamTopup): string | null {
  if (topup.customIdentifier !== order.orderId)
    return `it carries the customIdentifier ${topup.customIdentifier ?? '(none)'}, not ${order.orderId}`;
  if (
    topup.requestedAmount !== null &&
    topup.requestedAmountCurrencyCode === order.currency &&
    scaled(topup.requestedAmount) !== scaled(order.amount)
  )
    return `it was requested for ${topup.requestedAmount} ${order.currency}, not the order's ${order.amount} ${order.currency}`;
  return shortOf('delivered', topup.deliveredAmount, topup.deliveredAmountCurrencyCode, order);
}

/**
 * Why a SUCCESSFUL utility payment (sent as a local amount) is not the order, or null: its `amount` must be the
 * order's exactly, its `deliveryAmount` (when given) no less, both in the order's currency.
 */
export function paymentMismatch(order: ProviderOrderAmount, payment: UpstreamPayment): string | null {
  if (payment.referenceId !== order.orderId)
    return `it carries the referenceId ${payment.referenceId ?? '(none)'}, not ${order.orderId}`;
  if (payment.amount === null && payment.deliveryAmount === null) return 'it does not say what amount was paid';
  if (payment.amount !== null) {
    const paid = `${payment.amount} ${payment.amountCurrencyCode ?? '(no currency)'}`;
    if (payment.amountCurrencyCode !== order.currency || scaled(payment.amount) !== scaled(order.amount))
      return `it paid ${paid}, not the order's ${order.amount} ${order.currency}`;
  }
  if (payment.deliveryAmount === null) return null;
  return shortOf('delivered', payment.deliveryAmount, payment.deliveryAmountCurrencyCode, order);
}

/** Whether what a success delivered falls short of the order: another currency, or less. */
function shortOf(
  what: string,
  amount: string | null,
  currency: string | null,
  order: ProviderOrderAmount,
): string | null {
  if (amount === null || currency === null) return `it does not say what was ${what}`;
  if (currency !== order.currency) return `it ${what} ${amount} ${currency}, not an amount in ${order.currency}`;
  if (scaled(amount) < scaled(order.amount))
    return `it ${what} ${amount} ${currency}, less than the order's ${order.amount} ${order.currency}`;
  return null;
}
