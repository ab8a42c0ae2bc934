import { Logger } from '@nestjs/common';
import { LiveProviderStatus, ProviderStatusReader } from '../../../application/ports/provider-status.port';
import { ReloadlyConfig } from '../../../config/service-config';
import { ReloadlyApiClient } from './reloadly-api';
import { ReloadlyBackOffice } from './reloadly-back-office';
import { ReloadlyFloat } from './reloadly-float';
import { ReloadlyHttp } from './reloadly-http';
import { ReloadlyProvider } from './reloadly-provider';
import { ReloadlyRateLimit } from './reloadly-rate-limit';
import { ReloadlyTokens } from './reloadly-tokens';

const STATUS_TIMEOUT_MS = 5_000;
/** A reading older than this is refreshed even when the caller does not ask for a fresh one (metrics scrapes). */
const READING_MAX_AGE_MS = 60_000;

export class ReloadlyLiveProvider implements ProviderStatusReader {
  readonly api: ReloadlyApiClient;
  readonly provider: ReloadlyProvider;
  readonly backOffice: ReloadlyBackOffice;
  private readonly float: ReloadlyFloat;

  /** `now`: the service's clock, which jobs are scheduled by (a rate limit's pause is counted on it). */
  constructor(config: ReloadlyConfig, now: () => number = Date.now) {
    const logger = new Logger('Reloadly');
    const http = new ReloadlyHttp(config, new ReloadlyTokens(config), new ReloadlyRateLimit(now));
    this.api = new ReloadlyApiClient(http, config.reportTimeZone);
    this.float = new ReloadlyFloat(this.api, config.lowFloatThreshold, (message) => logger.warn(message));
    this.provider = new ReloadlyProvider(this.api, this.float, now);
    this.backOffice = new ReloadlyBackOffice(this.api);
    logger.log(
      `live orders go to reloadly: airtime ${config.topupsUrl}, utilities ${config.utilitiesUrl}; each live order goes where its route says (route list)`,
    );
  }

  async live(fresh: boolean): Promise<LiveProviderStatus> {
    let error: string | null = null;
    const last = this.float.lastReading;
    if (fresh || !last || Date.now() - last.readAt.getTime() > READING_MAX_AGE_MS) {
      try {
        await this.float.read(AbortSignal.timeout(STATUS_TIMEOUT_MS));
      } catch (problem) {
        error = (problem as Error).message;
      }
    }
    const reading = this.float.lastReading;
    return {
      provider: 'reloadly',
      balance: reading?.balance ?? null,
      currency: reading?.currencyCode ?? null,
      lowFloatThreshold: this.float.lowThreshold,
      low: reading ? this.float.isLow(reading) : null,
      readAt: reading?.readAt.toISOString() ?? null,
      error,
    };
  }
}
