import { ProviderCatalogSource, ProviderReportSource } from '../../../application/ports/provider-back-office.port';
import { UpstreamProduct } from '../../../domain/routing/propose-routes';
import { UpstreamTransaction } from '../../../domain/reconciliation/reconciliation';
import { ReloadlyApiClient } from './reloadly-api';
import { paymentTransaction, topupTransaction } from './reloadly-upstream-transaction';

const BACK_OFFICE_TIMEOUT_MS = 60_000;

/** Reloadly's operator and biller catalogs (for `provider sync`) and its transaction reports (for reconciliation). */
export class ReloadlyBackOffice implements ProviderCatalogSource, ProviderReportSource {
  constructor(private readonly api: ReloadlyApiClient) {}

  async products(countries: readonly string[]): Promise<UpstreamProduct[]> {
    const signal = AbortSignal.timeout(BACK_OFFICE_TIMEOUT_MS);
    const products: UpstreamProduct[] = [];
    for (const country of countries) {
      for (const operator of await this.api.operatorsByCountry(country, signal)) {
        products.push({
          kind: 'operator',
          id: String(operator.id),
          name: operator.name,
          country: operator.countryCode ?? country,
        });
      }
      for (const biller of await this.api.billersByCountry(country, signal)) {
        products.push({
          kind: 'biller',
          id: String(biller.id),
          name: biller.name,
          country: biller.countryCode ?? country,
        });
      }
    }
    return products;
  }

  /**
   * Topups are compared in the recipient's currency (the local amount we send), payments in the
   * payment's amount. The report is asked for in its own time zone and its dates read in it.
   */
  async transactions(from: Date, to: Date): Promise<UpstreamTransaction[]> {
    const signal = AbortSignal.timeout(BACK_OFFICE_TIMEOUT_MS);
    const range = { from, to };
    const zone = this.api.reportTimeZone;
    // A transaction Reloadly does not date is dated at the epoch: outside any day reconciled.
    const undated = new Date(0);
    const topups = (await this.api.topupReport(range, signal))
      .filter((topup) => topup.transactionId !== null)
      .map((topup) => topupTransaction(topup, zone, undated));
    const payments = (await this.api.paymentReport(range, signal))
      .filter((payment) => payment.id !== null)
      .map((payment) => paymentTransaction(payment, zone, undated));
    return [...topups, ...payments].filter((transaction) => {
      const at = Date.parse(transaction.at);
      return at >= from.getTime() && at < to.getTime();
    });
  }
}
