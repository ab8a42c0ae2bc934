/** Our float at the live provider, as operations see it. Amounts are decimal texts in the provider account's currency. */
export interface LiveProviderStatus {
  provider: string;
  balance: string | null;
  currency: string | null;
  lowFloatThreshold: string | null;
  /** Whether the balance is below the threshold; null when no balance could be read. */
  low: boolean | null;
  /** When the balance was read (ISO time); null when it never was. */
  readAt: string | null;
  /** Why the provider could not be asked just now, if it could not. */
  error: string | null;
  /**
   * False where the provider publishes no balance endpoint (Setu): there is no float to read,
   * `balance` stays null and the account is watched where it is held; absent or true otherwise.
   */
  balanceEndpoint?: boolean;
}

export interface ProviderStatusReader {
  /** The (first) live provider's status, null when none is configured. `fresh`: ask the provider now rather than report the last reading. */
  live(fresh: boolean): Promise<LiveProviderStatus | null>;
  /** Every configured live provider's status, in the configured order. */
  all?(fresh: boolean): Promise<LiveProviderStatus[]>;
}

export const PROVIDER_STATUS = Symbol('ProviderStatusReader');
