import { Environment } from '../../domain/shared/environment';
import { TransactionInitiated } from '../../domain/transaction/transaction.events';
import { WalletDebited } from '../../domain/wallet/wallet.events';

/** The order as its debit placed it: what the order's stream opens with, and what its submission carries. */
export function initiationOfDebit(
  data: WalletDebited['data'],
  placedBy: { partnerId: string; environment: Environment },
): TransactionInitiated['data'] {
  return {
    orderId: data.orderId,
    partnerId: placedBy.partnerId,
    environment: placedBy.environment,
    amount: data.amount,
    currency: data.currency,
    product: data.product,
    reference: data.reference,
    placedAt: data.placedAt,
    ...(data.route ? { route: data.route } : {}),
  };
}
