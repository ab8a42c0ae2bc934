import { ProviderCatalogSource, ProviderReportSource } from '../../../application/ports/provider-back-office.port';
import { UpstreamTransaction } from '../../../domain/reconciliation/reconciliation';
import { UpstreamProduct } from '../../../domain/routing/propose-routes';
import { ReloadlyApiClient } from './reloadly-api';
import { UpstreamBiller, UpstreamOperator } from './reloadly-records';
import { REPORT_PAGE_TIMEOUT_MS } from '../report-pages';
import { paymentTransaction, topupTransaction } from './reloadly-upstream-transaction';

const CATALOG_TIMEOUT_MS = 60_000;

export class ReloadlyBackOffice implements ProviderCatalogSource, ProviderReportSource {
  constructor(
    private readonly api: ReloadlyApiClient,
    private readonly pageTimeoutMs = REPORT_PAGE_TIMEOUT_MS,
  ) {}

  /** Report dates are wall-clock times in RELOADLY_REPORT_TIME_ZONE; RECONCILIATION_AT is read in it too. */
  get timeZone(): string {
    return this.api.reportTimeZone;
  }

  async products(countries: readonly string[]): Promise<UpstreamProduct[]> {
    const signal = AbortSignal.timeout(CATALOG_TIMEOUT_MS);
    const products: UpstreamProduct[] = [];
    for (const country of countries) {
      const ofKind = (kind: UpstreamProduct['kind'], entries: readonly (UpstreamOperator | UpstreamBiller)[]) =>
        entries.map(({ id, name, countryCode }) => ({ kind, id: String(id), name, country: countryCode ?? country }));
      products.push(...ofKind('operator', await this.api.operatorsByCountry(country, signal)));
      products.push(...ofKind('biller', await this.api.billersByCountry(country, signal)));
    }
    return products;
  }

  /** Topups compared in the recipient's currency, payments in their amount; an unreadable date fails the read (UnreadableReportError). */
  async transactions(from: Date, to: Date): Promise<UpstreamTransaction[]> {
    const range = { from, to };
    const zone = this.api.reportTimeZone;
    const topups = (await this.api.topupReport(range, this.pageTimeoutMs))
      .filter((topup) => topup.transactionId !== null)
      .map((topup) => topupTransaction(topup, zone, 'refuse'));
    const payments = (await this.api.paymentReport(range, this.pageTimeoutMs))
      .filter((payment) => payment.id !== null)
      .map((payment) => paymentTransaction(payment, zone, 'refuse'));
    return [...topups, ...payments].filter((transaction) => {
      const at = Date.parse(transaction.at);
      return at >= from.getTime() && at < to.getTime();
    });
  }
}
