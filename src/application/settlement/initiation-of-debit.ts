import { RouteTarget } from '../../domain/routing/route';
import { Environment } from '../../domain/shared/environment';
import { TransactionInitiated } from '../../domain/transaction/transaction.events';
import { WalletDebited } from '../../domain/wallet/wallet.events';

/** What an order's initiation is made of: its debit's fields (or a submission's, which carries them). */
type InitiationFields = Pick<
  WalletDebited['data'],
  'orderId' | 'amount' | 'currency' | 'product' | 'reference' | 'placedAt'
> & { route?: RouteTarget | null };

/** The order as its debit placed it: what the order's stream opens with, and what its submission carries. */
export function initiationOfDebit(
  data: InitiationFields,
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
