import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { currencyOf } from '../../domain/corridor/corridor';
import { KEY_CAP_WINDOW_MS } from '../../domain/partner/scoped-key';
import { Currency } from '../../domain/money/currency';
import { Environment } from '../../domain/shared/environment';
import { keySpentWithin } from '../../domain/wallet/wallet.decider';
import { CLOCK, Clock } from '../ports/clock.port';
import { KEY_USAGE, KeyUsage } from '../ports/key-usage.port';
import { KeyProvenance, READ_MODELS, ReadModels, ScopedKeyView } from '../ports/read-models.port';
import { ServiceError } from '../shared/service-error';
import { WalletCommandProcessor } from '../wallets/wallet-command-processor';

/** A restricted key, whether it still works, and what it spent and was refused in the last 24 hours. */
export interface ScopedKeyInUse extends ScopedKeyView {
  status: 'active' | 'expired' | 'revoked';
  spentLast24h: string;
  refusalsLast24h: number;
}

/** The environment's main key and its restricted keys. */
export interface ScopedKeyList {
  environment: Environment;
  currency: Currency;
  mainKey: KeyProvenance | null;
  keys: ScopedKeyInUse[];
}

export class ListScopedKeys extends Query<ScopedKeyList> {
  constructor(
    readonly partnerId: string,
    readonly environment: Environment,
  ) {
    super();
  }
}

export function scopedKeyInUse(
  key: ScopedKeyView,
  usage: { spentLast24h: string; refusalsLast24h: number },
  now: Date,
): ScopedKeyInUse {
  const expired = key.expiresAt !== null && new Date(key.expiresAt).getTime() <= now.getTime();
  return { ...key, status: key.revokedAt !== null ? 'revoked' : expired ? 'expired' : 'active', ...usage };
}

/**
 * The partner's restricted keys with their usage: the spend of the last 24 hours comes from the
 * wallet itself (what the cap is decided against, refunds given back), the refusals from KeyUsage.
 * Every key, the environment's main key too, shows who created it and when it was last used.
 */
@QueryHandler(ListScopedKeys)
export class ListScopedKeysHandler implements IQueryHandler<ListScopedKeys> {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    @Inject(KEY_USAGE) private readonly usage: KeyUsage,
    private readonly wallets: WalletCommandProcessor,
  ) {}

  async execute({ partnerId, environment }: ListScopedKeys): Promise<ScopedKeyList> {
    const partner = await this.readModels.partner(partnerId);
    if (!partner) throw new ServiceError('not_found', 'partner not found');
    const currency = currencyOf(partner.corridor);
    const now = this.clock.now();
    const keys = await this.readModels.scopedKeys(partnerId, environment);
    const mainKey = await this.readModels.mainKey(partnerId, environment);
    const wallet = await this.wallets.current(partnerId, environment);
    const refusals = await this.usage.refusalsSince(
      keys.map((key) => key.keyId),
      new Date(now.getTime() - KEY_CAP_WINDOW_MS),
    );
    return {
      environment,
      currency,
      mainKey,
      keys: keys.map((key) =>
        scopedKeyInUse(
          key,
          {
            spentLast24h: keySpentWithin(wallet, key.keyId, now.toISOString(), currency).toDecimal(),
            refusalsLast24h: refusals.get(key.keyId) ?? 0,
          },
          now,
        ),
      ),
    };
  }
}
