import { Money } from '../money/money';
import { WalletEvent } from './wallet.events';

/** A wallet event's amount as it moves the balance: a debit takes it away, a credit or a refund adds it. */
export const signedMovement = (event: Pick<WalletEvent, 'type'>, amount: Money): Money =>
  event.type === 'WalletDebited' ? Money.zero(amount.currency).minus(amount) : amount;
