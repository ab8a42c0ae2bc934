import { Caller } from '../../application/auth/caller';
import type { WalletBalance } from '../../application/wallets/get-balance';
import { Corridor } from '../../domain/corridor/corridor';
import { Currency } from '../../domain/money/currency';
import { Environment } from '../../domain/shared/environment';

/** The Balance resource: the wallet of the key's environment, in the corridor currency. */
export interface BalanceResource {
  available: string;
  currency: Currency;
  corridor: Corridor;
  updated_at: string;
  environment: Environment;
}

export const balanceResource = (caller: Caller, balance: WalletBalance): BalanceResource => ({
  available: balance.available.toDecimal(),
  currency: caller.currency,
  corridor: caller.corridor,
  updated_at: balance.updatedAt,
  environment: caller.environment,
});
