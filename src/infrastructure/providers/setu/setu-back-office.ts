import {
  CatalogCoverage,
  ProviderCatalogSource,
  ProviderReportSource,
  UnreadableReportError,
} from '../../../application/ports/provider-back-office.port';
import { UpstreamTransaction } from '../../../domain/reconciliation/reconciliation';
import { UpstreamProduct } from '../../../domain/routing/propose-routes';
import { instantOfIsoText } from '../../../domain/shared/zoned-time';
import { REPORT_PAGE_TIMEOUT_MS } from '../report-pages';
import { quotedUpstreamText, reportEntryName } from '../upstream-text';
import { ProductKind } from '../../../domain/routing/route';
import { SetuApiClient, SetuTransaction } from './setu-api';
import { feeRefusalOf } from './setu-billers';
import { istDate, orderIdOfPaymentRef } from './setu-identifiers';
import { verdictOfPayment } from './setu-outcomes';

const CATALOG_TIMEOUT_MS = 60_000;

export class SetuBackOffice implements ProviderCatalogSource, ProviderReportSource {
  /** Setu serves BBPS billers, which are Indian: our other products are none of its business. */
  readonly coverage: CatalogCoverage = { kinds: ['biller'], countries: ['IN'], bbpsOnly: true };

  /** The list is filtered by dates in India, where the timestamps we send are written. */
  readonly timeZone = 'Asia/Kolkata';

  constructor(
    private readonly api: SetuApiClient,
    private readonly pageTimeoutMs = REPORT_PAGE_TIMEOUT_MS,
  ) {}

  async products(countries: readonly string[]): Promise<UpstreamProduct[]> {
    if (!countries.includes('IN')) return [];
    const billers = await this.api.billers(AbortSignal.timeout(CATALOG_TIMEOUT_MS));
    // A biller that charges a convenience fee is listed, so that it is not mistaken for another, but not offered.
    return billers.map((biller) => ({
      kind: 'biller',
      id: biller.id,
      name: biller.name,
      country: 'IN',
      ...(biller.customerFee ? { notOffered: feeRefusalOf(biller.id, biller.customerFee) } : {}),
    }));
  }

  /** A Setu biller that charges a customer convenience fee is refused (docs/decisions/0122-setu-convenience-fee.md). */
  async refusalOf(kind: ProductKind, upstreamId: string): Promise<string | null> {
    if (kind !== 'biller') return null;
    const biller = await this.api.billerById(upstreamId, AbortSignal.timeout(CATALOG_TIMEOUT_MS));
    return biller?.customerFee ? feeRefusalOf(upstreamId, biller.customerFee) : null;
  }

  /**
   * The list is filtered by the dates (in India) of the timestamps we sent, which are the orders'
   * placements: every date [from, to) touches is read, and entries are kept by their timestamp. A
   * timestamp that does not read fails the read (UnreadableReportError). Each page has its own timeout.
   */
  async transactions(from: Date, to: Date): Promise<UpstreamTransaction[]> {
    const listed = await this.api.transactions(
      { startDate: istDate(from), endDate: istDate(new Date(to.getTime() - 1)) },
      this.pageTimeoutMs,
    );
    return listed.map(upstreamTransactionOf).filter((transaction) => {
      const at = Date.parse(transaction.at);
      return at >= from.getTime() && at < to.getTime();
    });
  }
}

export function upstreamTransactionOf(listed: SetuTransaction): UpstreamTransaction {
  const verdict = verdictOfPayment(listed.status, null);
  const transactionId = listed.transactionId ?? listed.refId ?? '';
  const at = listed.timestamp === null ? null : instantOfIsoText(listed.timestamp);
  if (!at) {
    const entry = reportEntryName('payment', transactionId, listed.paymentRefId);
    throw new UnreadableReportError(
      listed.timestamp === null
        ? `setu: ${entry} of the transactions list has no timestamp`
        : `setu: ${entry} of the transactions list has a timestamp that is not a time: ${quotedUpstreamText(listed.timestamp)}`,
    );
  }
  return {
    customIdentifier: orderIdOfPaymentRef(listed.paymentRefId) ?? listed.paymentRefId,
    transactionId,
    status: verdict === 'succeeded' ? 'succeeded' : verdict === 'failed' ? 'failed' : 'pending',
    amount: listed.amount ?? '',
    currency: 'INR',
    at: at.toISOString(),
  };
}
