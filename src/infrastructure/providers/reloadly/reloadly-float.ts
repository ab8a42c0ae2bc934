import { ProviderUnavailableError } from '../../../application/ports/provider-gateway.port';
import { ReloadlyApiClient } from './reloadly-api';
import { scaled } from './upstream-decimal';

interface FloatReading {
  balance: string;
  currencyCode: string;
  readAt: Date;
}

/** The float, read before each send and updated from what Reloadly reports after it; below the threshold it warns once. */
export class ReloadlyFloat {
  private last: FloatReading | null = null;
  private warned = false;

  constructor(
    private readonly api: ReloadlyApiClient,
    readonly lowThreshold: string | null,
    private readonly warn: (message: string) => void,
    private readonly now: () => Date = () => new Date(),
  ) {}

  get lastReading(): FloatReading | null {
    return this.last;
  }

  async read(signal?: AbortSignal): Promise<FloatReading> {
    const balance = await this.api.balance('topups', signal);
    return this.record(balance.balance, balance.currencyCode);
  }

  async readOrNull(signal?: AbortSignal): Promise<FloatReading | null> {
    try {
      return await this.read(signal);
    } catch (error) {
      if (!(error instanceof ProviderUnavailableError) || signal?.aborted) throw error;
      this.warn(`reloadly float could not be read (${error.message}); the order is sent without the float check`);
      return null;
    }
  }

  observe(balance: string | null): void {
    if (balance !== null && this.last) this.record(balance, this.last.currencyCode);
  }

  isLow(reading: FloatReading): boolean {
    return this.lowThreshold !== null && scaled(reading.balance) < scaled(this.lowThreshold);
  }

  private record(balance: string, currencyCode: string): FloatReading {
    const reading = { balance, currencyCode, readAt: this.now() };
    this.last = reading;
    if (this.isLow(reading) && !this.warned) {
      this.warned = true;
      this.warn(
        `reloadly float is low: ${balance} ${currencyCode}, below the threshold of ${this.lowThreshold} ${currencyCode}; top it up before orders are refused`,
      );
    } else if (!this.isLow(reading)) {
      this.warned = false;
    }
    return reading;
  }
}
