import { ProviderNotSentError, ProviderUnavailableError } from '../../../application/ports/provider-gateway.port';
import { SetuApiClient, SetuBiller } from './setu-api';

const BILLER_CACHE_MS = 60 * 60 * 1000;

/**
 * Setu's entries of its billers (`/billers?ids=`): read for a fetch's parameter names (kept an hour; null when
 * Setu does not give the entry just now), and read afresh before a payment, whose biller must charge no
 * customer convenience fee (docs/decisions/0122-setu-convenience-fee.md).
 */
export class SetuBillers {
  private readonly cache = new Map<string, { biller: SetuBiller | null; until: number }>();

  constructor(private readonly api: SetuApiClient) {}

  async cached(id: string, signal?: AbortSignal): Promise<SetuBiller | null> {
    const cached = this.cache.get(id);
    if (cached && Date.now() < cached.until) return cached.biller;
    try {
      return await this.fresh(id, signal);
    } catch (error) {
      if (error instanceof ProviderUnavailableError && !signal?.aborted) return null;
      throw error;
    }
  }

  async fresh(id: string, signal?: AbortSignal): Promise<SetuBiller | null> {
    const biller = await this.api.billerById(id, signal);
    this.cache.set(id, { biller, until: Date.now() + BILLER_CACHE_MS });
    return biller;
  }

  /**
   * Why a payment to this biller may not be sent: the fee it charges on top of the bill, which partners cannot
   * be shown or charged; null when it charges none. An entry that cannot be read sends nothing, for now.
   */
  async feeRefusal(id: string, signal?: AbortSignal): Promise<string | null> {
    let biller: SetuBiller | null;
    try {
      biller = await this.fresh(id, signal);
    } catch (error) {
      if (!(error instanceof ProviderUnavailableError) || error instanceof ProviderNotSentError) throw error;
      throw new ProviderNotSentError(
        `${error.message}; setu's entry of biller ${id} is read before each payment (its convenience fee), so the payment was not sent`,
        { retryAfterMs: error.retryAfterMs },
      );
    }
    return biller?.customerFee ? feeRefusalOf(id, biller.customerFee) : null;
  }
}

export const feeRefusalOf = (id: string, fee: string): string =>
  `setu biller ${id} charges a customer convenience fee on top of the bill (${fee}), which this service cannot show or collect: it is not offered`;
