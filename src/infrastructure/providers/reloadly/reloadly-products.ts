import {
  ProviderNotSentError,
  ProviderOrder,
  ProviderUnavailableError,
} from '../../../application/ports/provider-gateway.port';
import { ReloadlyApiClient } from './reloadly-api';
import { UpstreamBiller, UpstreamOperator } from './reloadly-records';

const CACHE_MS = 60 * 60_000;

type LocalProduct<T> = { product: T } | { refusal: string };

/** Whether an operator or biller takes the order's amount as local (kept an hour); unreadable means not sent (decision 0120). */
export class ReloadlyProducts {
  private readonly operators = new Map<number, { entry: UpstreamOperator; until: number }>();
  private readonly billers = new Map<number, { entry: UpstreamBiller; until: number }>();

  constructor(
    private readonly api: ReloadlyApiClient,
    private readonly now: () => number = Date.now,
  ) {}

  async operatorFor(order: ProviderOrder, id: number, signal?: AbortSignal): Promise<LocalProduct<UpstreamOperator>> {
    const operator = await this.cached(this.operators, id, `operator ${id}`, () => this.api.operatorById(id, signal));
    if (!operator) return { refusal: `reloadly has no operator ${id}; the topup was not sent` };
    if (!operator.supportsLocalAmounts || operator.destinationCurrencyCode !== order.currency)
      return { refusal: `reloadly operator ${id} does not take amounts in ${order.currency}` };
    return { product: operator };
  }

  async billerFor(order: ProviderOrder, id: number, signal?: AbortSignal): Promise<LocalProduct<UpstreamBiller>> {
    const biller = await this.cached(this.billers, id, `biller ${id}`, () => this.api.billerById(id, signal));
    if (!biller) return { refusal: `reloadly has no biller ${id}; the payment was not sent` };
    if (!biller.localAmountSupported || biller.localTransactionCurrencyCode !== order.currency)
      return { refusal: `reloadly biller ${id} does not take amounts in ${order.currency}` };
    return { product: biller };
  }

  private async cached<T>(
    cache: Map<number, { entry: T; until: number }>,
    id: number,
    what: string,
    read: () => Promise<T | null>,
  ): Promise<T | null> {
    const kept = cache.get(id);
    if (kept && this.now() < kept.until) return kept.entry;
    let entry: T | null;
    try {
      entry = await read();
    } catch (error) {
      if (!(error instanceof ProviderUnavailableError)) throw error;
      throw new ProviderNotSentError(
        `reloadly ${what} could not be read (${error.message}); the order was not sent without knowing that it takes amounts in the order's currency`,
        { retryAfterMs: error.retryAfterMs },
      );
    }
    if (entry !== null) cache.set(id, { entry, until: this.now() + CACHE_MS });
    return entry;
  }
}
