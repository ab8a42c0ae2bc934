import {
  CatalogCoverage,
  ProviderCatalogSource,
  ProviderReportSource,
} from '../../../application/ports/provider-back-office.port';
import { UpstreamTransaction } from '../../../domain/reconciliation/reconciliation';
import { UpstreamProduct } from '../../../domain/routing/propose-routes';
import { ProductKind } from '../../../domain/routing/route';
import { SetuApiClient, SetuTransaction } from './setu-api';
import { feeRefusalOf } from './setu-billers';
import { istDate, orderIdOfPaymentRef } from './setu-identifiers';
import { verdictOfPayment } from './setu-outcomes';

const BACK_OFFICE_TIMEOUT_MS = 60_000;

/** Setu's biller catalog (for `provider sync`: India's BBPS billers) and its transactions list (for reconciliation). */
export class SetuBackOffice implements ProviderCatalogSource, ProviderReportSource {
  /** Setu serves BBPS billers, which are Indian: our other products are none of its business. */
  readonly coverage: CatalogCoverage = { kinds: ['biller'], countries: ['IN'], bbpsOnly: true };

  constructor(private readonly api: SetuApiClient) {}

  async products(countries: readonly string[]): Promise<UpstreamProduct[]> {
    if (!countries.includes('IN')) return [];
    const billers = await this.api.billers(AbortSignal.timeout(BACK_OFFICE_TIMEOUT_MS));
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
    const biller = await this.api.billerById(upstreamId, AbortSignal.timeout(BACK_OFFICE_TIMEOUT_MS));
    return biller?.customerFee ? feeRefusalOf(upstreamId, biller.customerFee) : null;
  }

  /**
   * The list is filtered by the dates (in India) of the timestamps we sent, which are the orders'
   * placements: every date [from, to) touches is read, and entries are kept by their timestamp.
   */
  async transactions(from: Date, to: Date): Promise<UpstreamTransaction[]> {
    const listed = await this.api.transactions(
      { startDate: istDate(from), endDate: istDate(new Date(to.getTime() - 1)) },
      AbortSignal.timeout(BACK_OFFICE_TIMEOUT_MS),
    );
    return listed.map(transactionOf).filter((transaction) => {
      const at = Date.parse(transaction.at);
      return at >= from.getTime() && at < to.getTime();
    });
  }
}

function transactionOf(listed: SetuTransaction): UpstreamTransaction {
  const verdict = verdictOfPayment(listed.status, null);
  const at = listed.timestamp ? Date.parse(listed.timestamp) : Number.NaN;
  return {
    customIdentifier: orderIdOfPaymentRef(listed.paymentRefId) ?? listed.paymentRefId,
    transactionId: listed.transactionId ?? listed.refId ?? '',
    status: verdict === 'succeeded' ? 'succeeded' : verdict === 'failed' ? 'failed' : 'pending',
    amount: listed.amount ?? '',
    currency: 'INR',
    at: new Date(Number.isNaN(at) ? 0 : at).toISOString(),
  };
}
