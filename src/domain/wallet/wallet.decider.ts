import { Decider, Decision, accept, refuse } from '../shared/decider';
import { domainError } from '../shared/domain-error';
import { Currency } from '../money/currency';
import { Money } from '../money/money';
import { CreditKind, WalletEvent } from './wallet.events';
import { OrderProduct } from './order-product';
import { RouteTarget } from '../routing/route';

export interface WalletState {
  /** Balance in minor units; null currency means the wallet has no events yet. */
  currency: Currency | null;
  balanceMinor: bigint;
}

export type WalletCommand =
  | { type: 'CreditWallet'; creditId: string; amount: Money; kind: CreditKind; reference: string; at: string }
  | { type: 'DebitWallet'; orderId: string; amount: Money; reference: string | null; idempotencyKey: string; product: OrderProduct; route?: RouteTarget | null; at: string }
  | { type: 'RefundWallet'; orderId: string; amount: Money; reason: string; at: string };

export const walletBalance = (state: WalletState, currency: Currency): Money => Money.ofMinor(state.balanceMinor, currency);

function sameCurrency(state: WalletState, amount: Money): boolean {
  return state.currency === null || state.currency === amount.currency;
}

function decide(command: WalletCommand, state: WalletState): Decision<WalletEvent> {
  const { amount } = command;
  if (!sameCurrency(state, amount)) {
    return refuse(domainError('currency_mismatch', `wallet holds ${state.currency}, not ${amount.currency}`));
  }
  if (!amount.isPositive()) {
    return refuse(domainError('validation_failed', 'amount: must be greater than zero'));
  }
  const balance = walletBalance(state, amount.currency);
  switch (command.type) {
    case 'CreditWallet':
      // A balance that could not be read back would stop every reader of the wallet, and the projections.
      if (!balance.plus(amount).isWithinRange()) {
        return refuse(domainError('validation_failed', `amount: the balance after it would exceed ${Money.MAX_INTEGER_DIGITS} integer digits (now ${balance.toDecimal()} ${amount.currency})`));
      }
      return accept({
        type: 'WalletCredited',
        data: {
          creditId: command.creditId,
          amount: amount.toDecimal(),
          currency: amount.currency,
          balanceAfter: balance.plus(amount).toDecimal(),
          kind: command.kind,
          reference: command.reference,
          creditedAt: command.at,
        },
      });
    case 'DebitWallet':
      if (balance.isLessThan(amount)) {
        return refuse(
          domainError('insufficient_balance', `available ${balance.toDecimal()} ${amount.currency} is below the required ${amount.toDecimal()}`),
        );
      }
      return accept({
        type: 'WalletDebited',
        data: {
          orderId: command.orderId,
          amount: amount.toDecimal(),
          currency: amount.currency,
          balanceAfter: balance.minus(amount).toDecimal(),
          reference: command.reference,
          idempotencyKey: command.idempotencyKey,
          product: command.product,
          placedAt: command.at,
          ...(command.route ? { route: command.route } : {}),
        },
      });
    case 'RefundWallet':
      return accept({
        type: 'WalletRefunded',
        data: {
          orderId: command.orderId,
          amount: amount.toDecimal(),
          currency: amount.currency,
          balanceAfter: balance.plus(amount).toDecimal(),
          reason: command.reason,
          refundedAt: command.at,
        },
      });
  }
}

function evolve(state: WalletState, event: WalletEvent): WalletState {
  const amount = Money.parse(event.data.amount, event.data.currency);
  if (!amount) throw new Error(`corrupt wallet event amount: ${event.data.amount}`);
  const delta = event.type === 'WalletDebited' ? -amount.minor : amount.minor;
  return { currency: event.data.currency, balanceMinor: state.balanceMinor + delta };
}

export const walletDecider: Decider<WalletState, WalletCommand, WalletEvent> = {
  initialState: { currency: null, balanceMinor: 0n },
  decide,
  evolve,
};
