import { Currency } from '../money/currency';
import { Money } from '../money/money';
import { Environment } from '../shared/environment';
import { EventStream, EventTypeTable } from '../shared/event-types';

/**
 * `wallet.low_balance`: a debit took the available balance from at or above the partner's threshold to
 * below it. Debits of one wallet are serialized, so each crossing is one debit (decision 0108).
 */
export type WalletLowBalanceReached = {
  type: 'WalletLowBalanceReached';
  data: {
    partnerId: string;
    environment: Environment;
    /** The order whose debit crossed the threshold. */
    orderId: string;
    currency: Currency;
    threshold: string;
    balanceAfter: string;
    reachedAt: string;
  };
};

/** What a wallet's notice stream holds. */
export type LowBalanceNoticeEvent = WalletLowBalanceReached;

export const LOW_BALANCE_NOTICE_EVENTS: EventTypeTable<LowBalanceNoticeEvent> = { WalletLowBalanceReached: true };

/** Notices live in a stream of their own per wallet (never the wallet's, whose hot appends they would contend with). */
export const lowBalanceNoticeStreamId = (partnerId: string, environment: Environment): string =>
  `balance-notices-${partnerId}-${environment}`;

export const lowBalanceNoticeStream = (
  partnerId: string,
  environment: Environment,
): EventStream<LowBalanceNoticeEvent> => ({
  id: lowBalanceNoticeStreamId(partnerId, environment),
  holds: LOW_BALANCE_NOTICE_EVENTS,
});

export interface DebitMovement {
  amount: string;
  balanceAfter: string;
  currency: Currency;
}

/** True when the debit took the balance from at or above `threshold` to below it. */
export function debitCrossesBelow(debit: DebitMovement, threshold: string): boolean {
  const after = Money.parse(debit.balanceAfter, debit.currency);
  const amount = Money.parse(debit.amount, debit.currency);
  const limit = Money.parse(threshold, debit.currency);
  if (!after || !amount || !limit) return false;
  return after.minor < limit.minor && after.minor + amount.minor >= limit.minor;
}
