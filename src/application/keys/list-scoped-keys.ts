import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { currencyOf } from '../../domain/corridor/corridor';
import { KEY_CAP_WINDOW_MS } from '../../domain/partner/scoped-key';
import { Currency } from '../../domain/money/currency';
import { Environment } from '../../domain/shared/environment';
import { keySpentWithin } from '../../domain/wallet/wallet.decider';
import { CLOCK, Clock } from '../ports/clock.port';
import { KEY_USAGE, KeyUsage } from '../ports/key-usage.port';
import { READ_MODELS, ReadModels } from '../ports/read-models.port';
import { ServiceError } from '../shared/service-error';
import { WalletCommandProcessor } from '../wallets/wallet-command-processor';
import { MainKeyResource, ScopedKeyResource, mainKeyResource, scopedKeyResource } from './scoped-key-resource';

/** The ScopedKeyList resource: the environment's main key and its restricted keys. */
export interface ScopedKeyListResource {
  environment: Environment;
  currency: Currency;
  main_key: MainKeyResource | null;
  keys: ScopedKeyResource[];
}

export class ListScopedKeys extends Query<ScopedKeyListResource> {
  constructor(
    readonly partnerId: string,
    readonly environment: Environment,
  ) {
    super();
  }
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

  async execute({ partnerId, environment }: ListScopedKeys): Promise<ScopedKeyListResource> {
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
      main_key: mainKey ? mainKeyResource(mainKey) : null,
      keys: keys.map((key) =>
        scopedKeyResource(
          key,
          {
            spent24h: keySpentWithin(wallet, key.keyId, now.toISOString(), currency).toDecimal(),
            refusals24h: refusals.get(key.keyId) ?? 0,
          },
          now,
        ),
      ),
    };
  }
}
