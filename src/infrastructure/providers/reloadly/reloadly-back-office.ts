import { ProviderCatalogSource, ProviderReportSource } from '../../../application/ports/provider-back-office.port';
import { UpstreamTransaction } from '../../../domain/reconciliation/reconciliation';
import { UpstreamProduct } from '../../../domain/routing/propose-routes';
import { ReloadlyApiClient, UpstreamPayment, UpstreamTopup } from './reloadly-api';
import { UpstreamVerdict, verdictOfPayment, verdictOfTopup } from './reloadly-outcomes';
import { instantOfReportTime } from './report-time';

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
    const topups = (await this.api.topupReport(range, signal)).flatMap((topup) => topupTransaction(topup, zone));
    const payments = (await this.api.paymentReport(range, signal)).flatMap((payment) =>
      paymentTransaction(payment, zone),
    );
    return [...topups, ...payments].filter((transaction) => {
      const at = Date.parse(transaction.at);
      return at >= from.getTime() && at < to.getTime();
    });
  }
}

function topupTransaction(topup: UpstreamTopup, zone: string): UpstreamTransaction[] {
  if (topup.transactionId === null) return [];
  const delivered = topup.deliveredAmount !== null && topup.deliveredAmountCurrencyCode !== null;
  return [
    {
      customIdentifier: topup.customIdentifier,
      transactionId: topup.transactionId,
      status: statusOf(verdictOfTopup(topup)),
      amount: (delivered ? topup.deliveredAmount : topup.requestedAmount) ?? '',
      currency: (delivered ? topup.deliveredAmountCurrencyCode : topup.requestedAmountCurrencyCode) ?? '',
      at: instantOf(topup.transactionDate, zone),
    },
  ];
}

function paymentTransaction(payment: UpstreamPayment, zone: string): UpstreamTransaction[] {
  if (payment.id === null) return [];
  return [
    {
      customIdentifier: payment.referenceId,
      transactionId: payment.id,
      status: statusOf(verdictOfPayment(payment)),
      amount: payment.amount ?? '',
      currency: payment.amountCurrencyCode ?? '',
      at: instantOf(payment.submittedAt, zone),
    },
  ];
}

/** Processing and unlisted statuses are not final: neither paid nor refused yet. */
const statusOf = (verdict: UpstreamVerdict): UpstreamTransaction['status'] =>
  verdict === 'succeeded' ? 'succeeded' : verdict === 'failed' ? 'failed' : 'pending';

/** Reloadly dates transactions as "yyyy-MM-dd HH:mm:ss" in the report's time zone; a time with an offset passes through. */
function instantOf(text: string | null, zone: string): string {
  return (text ? instantOfReportTime(text, zone) : null)?.toISOString() ?? new Date(0).toISOString();
}
