import { ProviderCatalogSource, ProviderReportSource } from '../../../application/ports/provider-back-office.port';
import { UpstreamTransaction } from '../../../domain/reconciliation/reconciliation';
import { UpstreamProduct } from '../../../domain/routing/propose-routes';
import { ReloadlyApiClient, UpstreamPayment, UpstreamTopup } from './reloadly-api';
import { UpstreamVerdict, verdictOfPayment, verdictOfTopup } from './reloadly-outcomes';

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

  /** Topups are compared in the recipient's currency (the local amount we send), payments in the payment's amount. */
  async transactions(from: Date, to: Date): Promise<UpstreamTransaction[]> {
    const signal = AbortSignal.timeout(BACK_OFFICE_TIMEOUT_MS);
    const range = { from, to };
    const topups = (await this.api.topupReport(range, signal)).map(topupTransaction);
    const payments = (await this.api.paymentReport(range, signal)).map(paymentTransaction);
    return [...topups, ...payments].filter((transaction) => {
      const at = Date.parse(transaction.at);
      return at >= from.getTime() && at < to.getTime();
    });
  }
}

function topupTransaction(topup: UpstreamTopup): UpstreamTransaction {
  const delivered = topup.deliveredAmount !== null && topup.deliveredAmountCurrencyCode !== null;
  return {
    customIdentifier: topup.customIdentifier,
    transactionId: topup.transactionId,
    status: statusOf(verdictOfTopup(topup)),
    amount: (delivered ? topup.deliveredAmount : topup.requestedAmount) ?? '',
    currency: (delivered ? topup.deliveredAmountCurrencyCode : topup.requestedAmountCurrencyCode) ?? '',
    at: instantOf(topup.transactionDate),
  };
}

function paymentTransaction(payment: UpstreamPayment): UpstreamTransaction {
  return {
    customIdentifier: payment.referenceId,
    transactionId: payment.id,
    status: statusOf(verdictOfPayment(payment)),
    amount: payment.amount ?? '',
    currency: payment.amountCurrencyCode ?? '',
    at: instantOf(payment.submittedAt),
  };
}

/** Processing and unlisted statuses are not final: neither paid nor refused yet. */
const statusOf = (verdict: UpstreamVerdict): UpstreamTransaction['status'] =>
  verdict === 'succeeded' ? 'succeeded' : verdict === 'failed' ? 'failed' : 'pending';

/** Reloadly dates transactions as "yyyy-MM-dd HH:mm:ss" in UTC; an ISO time passes through. */
function instantOf(text: string | null): string {
  if (!text) return new Date(0).toISOString();
  const at = Date.parse(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(text) ? `${text.replace(' ', 'T')}Z` : text);
  return Number.isNaN(at) ? new Date(0).toISOString() : new Date(at).toISOString();
}
