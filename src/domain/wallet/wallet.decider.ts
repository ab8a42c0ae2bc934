import { Decider, Decision, accept, refuse } from '../shared/decider';
import { domainError } from '../shared/domain-error';
import { Currency } from '../money/currency';
import { Money } from '../money/money';
import { CreditKind, WalletEvent } from './wallet.events';
import { OrderProduct } from './order-product';
import { RouteTarget } from '../routing/route';
import { KEY_CAP_WINDOW_MS, KeyCaps } from '../partner/scoped-key';
import { signedMovement } from './wallet-movement';

export interface WalletState {
  /** Balance in minor units; null currency means the wallet has no events yet. */
  currency: Currency | null;
  balanceMinor: bigint;
  /**
   * Orders placed with restricted keys within the last cap window (as of the latest debit), so a
   * key's daily cap is decided in the same append as the debit. A refund gives its order back.
   */
  keySpends: readonly KeySpend[];
}

export interface KeySpend {
  keyId: string;
  orderId: string;
  minor: bigint;
  placedAt: string;
}

export type WalletCommand =
  | { type: 'CreditWallet'; creditId: string; amount: Money; kind: CreditKind; reference: string; at: string }
  | {
      type: 'DebitWallet';
      orderId: string;
      amount: Money;
      reference: string | null;
      idempotencyKey: string;
      product: OrderProduct;
      route?: RouteTarget | null;
      /** Placed with a restricted transact key: its caps. */
      keyCaps?: KeyCaps | null;
      /** The provider's answer is recorded in the debit's own commit: the order is never submitted. */
      answeredWithDebit?: boolean;
      at: string;
    }
  | { type: 'RefundWallet'; orderId: string; amount: Money; reason: string; at: string };

/** What a key has spent in the cap window ending at `at` (refunded orders excluded). */
export function keySpentWithin(state: WalletState, keyId: string, at: string, currency: Currency): Money {
  const since = new Date(at).getTime() - KEY_CAP_WINDOW_MS;
  const minor = state.keySpends
    .filter((spend) => spend.keyId === keyId && new Date(spend.placedAt).getTime() > since)
    .reduce((sum, spend) => sum + spend.minor, 0n);
  return Money.ofMinor(minor, currency);
}

function capRefusal(caps: KeyCaps, amount: Money, state: WalletState, at: string): Decision<WalletEvent> | null {
  if (caps.perOrderMax && caps.perOrderMax.isLessThan(amount)) {
    const detail =
      `amount ${amount.toDecimal()} ${amount.currency} is above this key's per-order maximum ` +
      `of ${caps.perOrderMax.toDecimal()}`;
    return refuse(domainError('key_cap_exceeded', detail));
  }
  if (caps.dailyMax) {
    const spent = keySpentWithin(state, caps.keyId, at, amount.currency);
    if (caps.dailyMax.isLessThan(spent.plus(amount))) {
      const detail =
        `this key has spent ${spent.toDecimal()} ${amount.currency} in the last 24 hours; ` +
        `${amount.toDecimal()} more is above its daily maximum of ${caps.dailyMax.toDecimal()}`;
      return refuse(domainError('key_cap_exceeded', detail));
    }
  }
  return null;
}

export const walletBalance = (state: WalletState, currency: Currency): Money =>
  Money.ofMinor(state.balanceMinor, currency);

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
        return refuse(
          domainError(
            'validation_failed',
            `amount: the balance after it would exceed ${Money.MAX_INTEGER_DIGITS} integer digits (now ${balance.toDecimal()} ${amount.currency})`,
          ),
        );
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
    case 'DebitWallet': {
      const overCap = command.keyCaps ? capRefusal(command.keyCaps, amount, state, command.at) : null;
      if (overCap) return overCap;
      if (balance.isLessThan(amount)) {
        return refuse(
          domainError(
            'insufficient_balance',
            `available ${balance.toDecimal()} ${amount.currency} is below the required ${amount.toDecimal()}`,
          ),
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
          ...(command.keyCaps ? { scopedKeyId: command.keyCaps.keyId } : {}),
          ...(command.answeredWithDebit ? { answeredWithDebit: true } : {}),
        },
      });
    }
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

/**
 * What a WalletState means, as evolve builds it. Raise it with any change to WalletState or to evolve:
 * wallet snapshots record the version they were folded under, and one of another version is ignored
 * (the wallet is folded from its log again). test/unit/application/wallets/wallet-fold-version.spec.ts pins a fold.
 */
export const WALLET_FOLD_VERSION = 1;

function evolve(state: WalletState, event: WalletEvent): WalletState {
  const amount = Money.parse(event.data.amount, event.data.currency);
  if (!amount) throw new Error(`corrupt wallet event amount: ${event.data.amount}`);
  return {
    currency: event.data.currency,
    balanceMinor: state.balanceMinor + signedMovement(event, amount).minor,
    keySpends: keySpendsAfter(state.keySpends, event, amount.minor),
  };
}

function keySpendsAfter(spends: readonly KeySpend[], event: WalletEvent, minor: bigint): readonly KeySpend[] {
  if (event.type === 'WalletRefunded') {
    const { orderId } = event.data;
    const refunded = spends.some((spend) => spend.orderId === orderId);
    return refunded ? spends.filter((spend) => spend.orderId !== orderId) : spends;
  }
  if (event.type !== 'WalletDebited' || !event.data.scopedKeyId) return spends;
  // Debits are recorded in time order, so what fell out of the window of this one is out of every later one's.
  const since = new Date(event.data.placedAt).getTime() - KEY_CAP_WINDOW_MS;
  const kept = spends.filter((spend) => new Date(spend.placedAt).getTime() > since);
  const { scopedKeyId: keyId, orderId, placedAt } = event.data;
  const spend: KeySpend = { keyId, orderId, minor, placedAt };
  return [...kept, spend];
}

export const walletDecider: Decider<WalletState, WalletCommand, WalletEvent> = {
  initialState: { currency: null, balanceMinor: 0n, keySpends: [] },
  decide,
  evolve,
};
