import { UpstreamProduct } from '../../domain/routing/propose-routes';
import { ProductKind } from '../../domain/routing/route';
import { UpstreamTransaction } from '../../domain/reconciliation/reconciliation';
import { ProviderUnavailableError } from './provider-gateway.port';

/** Which of our products a provider can serve at all: a sync proposes and reports on those only. */
export interface CatalogCoverage {
  kinds: readonly ProductKind[];
  /** ISO 3166 alpha-2 countries. */
  countries: readonly string[];
  /** Only our billers on BBPS (India's bill payment network). */
  bbpsOnly?: boolean;
}

/** A provider's catalog of operators and billers (for `provider sync`). */
export interface ProviderCatalogSource {
  /** Absent: every kind in every country (Reloadly). */
  readonly coverage?: CatalogCoverage;
  /** Every operator and biller the provider serves in these countries (ISO 3166 alpha-2). */
  products(countries: readonly string[]): Promise<UpstreamProduct[]>;
  /**
   * Why a route to this entry of the provider's catalog is refused (what `UpstreamProduct.notOffered` says);
   * null when nothing stands against it. ProviderUnavailableError when the entry cannot be read. Absent: no
   * entry is refused.
   */
  refusalOf?(kind: ProductKind, upstreamId: string): Promise<string | null>;
}

/** A provider's transaction report (for reconciliation). */
export interface ProviderReportSource {
  /** The IANA zone the provider's report keeps its days in: RECONCILIATION_AT is a time of day there. */
  readonly timeZone: string;
  /**
   * Every topup and bill payment the provider dates in [from, to), with the identifier we sent. Each page
   * of the report has its own timeout; a transaction whose date does not read fails the read
   * (UnreadableReportError), since the day it belongs to is unknown.
   */
  transactions(from: Date, to: Date): Promise<UpstreamTransaction[]>;
}

/** The report was read but one of its transactions was not (a date that is no time): the message names it and the text. */
export class UnreadableReportError extends ProviderUnavailableError {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableReportError';
  }
}

/** What the configured live providers offer besides orders, by the name routes use; null when a provider does not offer it. */
export interface ProviderBackOffices {
  catalogOf(provider: string): ProviderCatalogSource | null;
  reportsOf(provider: string): ProviderReportSource | null;
  /** Providers that have a transaction report. */
  reportNames(): string[];
}

export const PROVIDER_BACK_OFFICES = Symbol('ProviderBackOffices');
