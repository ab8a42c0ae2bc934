import { LoggerService } from '@nestjs/common';
import { Catalog } from '../../../application/ports/catalog.port';
import { LiveProviderStatus } from '../../../application/ports/provider-status.port';
import { SetuConfig } from '../../../config/service-config';
import { SetuApiClient } from './setu-api';
import { SetuBackOffice } from './setu-back-office';
import { BillerLabels } from './setu-customer-params';
import { SetuHttp } from './setu-http';
import { SetuProvider } from './setu-provider';
import { SetuTokens } from './setu-tokens';

const STATUS_TIMEOUT_MS = 5_000;

/**
 * The Setu adapter and what operations read of it. Setu has no balance endpoint (payments debit the agent's pool
 * account), so `provider status` shows `balance_endpoint: false` and an uncovered payment is refused, failed and
 * refunded.
 */
export class SetuLiveProvider {
  readonly api: SetuApiClient;
  readonly provider: SetuProvider;
  readonly backOffice: SetuBackOffice;
  private readonly tokens: SetuTokens;

  constructor(config: SetuConfig, catalog: Catalog, logger: LoggerService) {
    this.tokens = new SetuTokens(config);
    this.api = new SetuApiClient(new SetuHttp(config, this.tokens));
    this.provider = new SetuProvider(this.api, config, (billerId) => labelsOf(catalog, billerId));
    this.backOffice = new SetuBackOffice(this.api);
    logger.log(
      `live bill payments can go to setu (BBPS BillPay v2) at ${config.url}, partner ${config.partnerId}, agent ${config.agentId}; each live order goes where its route says (route list)`,
    );
  }

  /** Setu has no float to read; a fresh status proves the credentials by taking a token. */
  async status(fresh: boolean): Promise<LiveProviderStatus> {
    let error: string | null = null;
    if (fresh) {
      try {
        await Promise.race([
          this.tokens.token(),
          new Promise((_, reject) =>
            setTimeout(() => reject(new Error('the token endpoint did not answer in time')), STATUS_TIMEOUT_MS).unref(),
          ),
        ]);
      } catch (problem) {
        error = (problem as Error).message;
      }
    }
    return {
      provider: 'setu',
      balance: null,
      currency: null,
      lowFloatThreshold: null,
      low: null,
      readAt: null,
      error,
      balanceEndpoint: false,
    };
  }
}

function labelsOf(catalog: Catalog, billerId: number): BillerLabels | null {
  const biller = catalog.biller(billerId);
  if (!biller) return null;
  return {
    consumerNumber: biller.consumerNumber?.label ?? 'Consumer Number',
    params: Object.fromEntries(biller.params.map((param) => [param.name, param.label])),
  };
}
