import {
  ProviderCatalogSource,
  ProviderReportSource,
  UnreadableReportError,
} from '../../../application/ports/provider-back-office.port';
import { UpstreamTransaction } from '../../../domain/reconciliation/reconciliation';
import { UpstreamProduct } from '../../../domain/routing/propose-routes';
import { ReloadlyApiClient, UpstreamPayment, UpstreamTopup } from './reloadly-api';
import { UpstreamVerdict, verdictOfPayment, verdictOfTopup } from './reloadly-outcomes';
import { REPORT_PAGE_TIMEOUT_MS } from '../report-pages';
import { quotedUpstreamText, reportEntryName } from '../upstream-text';
import { instantOfReportTime } from './report-time';

const CATALOG_TIMEOUT_MS = 60_000;

/** Reloadly's operator and biller catalogs (for `provider sync`) and its transaction reports (for reconciliation). */
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
   * payment's amount. The report is asked for in its own time zone and its dates read in it; a date
   * that does not read fails the whole read (UnreadableReportError), since that transaction's day is unknown.
   * Each page has its own timeout.
   */
  async transactions(from: Date, to: Date): Promise<UpstreamTransaction[]> {
    const range = { from, to };
    const zone = this.api.reportTimeZone;
    const topups = (await this.api.topupReport(range, this.pageTimeoutMs)).flatMap((topup) =>
      topupTransaction(topup, zone),
    );
    const payments = (await this.api.paymentReport(range, this.pageTimeoutMs)).flatMap((payment) =>
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
      at: instantOf(
        topup.transactionDate,
        zone,
        reportEntryName('topup', topup.transactionId, topup.customIdentifier),
        'transactionDate',
      ),
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
      at: instantOf(
        payment.submittedAt,
        zone,
        reportEntryName('bill payment', payment.id, payment.referenceId),
        'submittedAt',
      ),
    },
  ];
}

/** Processing and unlisted statuses are not final: neither paid nor refused yet. */
const statusOf = (verdict: UpstreamVerdict): UpstreamTransaction['status'] =>
  verdict === 'succeeded' ? 'succeeded' : verdict === 'failed' ? 'failed' : 'pending';

/** Reloadly dates transactions as "yyyy-MM-dd HH:mm:ss" in the report's time zone; a time with an offset passes through. */
function instantOf(text: string | null, zone: string, transaction: string, field: string): string {
  const at = text === null ? null : instantOfReportTime(text, zone);
  if (at) return at.toISOString();
  throw new UnreadableReportError(
    text === null
      ? `reloadly: ${transaction} of the transaction report has no ${field}`
      : `reloadly: ${transaction} of the transaction report has a ${field} that is not a time: ${quotedUpstreamText(text)}`,
  );
}
