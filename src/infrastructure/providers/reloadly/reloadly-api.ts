import { ProviderUnavailableError } from '../../../application/ports/provider-gateway.port';
import { ReloadlyAnswer, ReloadlyHttp } from './reloadly-http';
import { ReloadlyApi } from './reloadly-settings';
import {
  billerOf,
  listOf,
  objectOf,
  operatorOf,
  paymentOf,
  stringOf,
  topupOf,
  UpstreamBalance,
  UpstreamBiller,
  UpstreamOperator,
  UpstreamPayment,
  UpstreamTopup,
} from './reloadly-records';
import { decimalText } from './upstream-decimal';

export type {
  UpstreamBalance,
  UpstreamBiller,
  UpstreamOperator,
  UpstreamPayment,
  UpstreamTopup,
} from './reloadly-records';

/** What a send (topup or bill payment) got: the upstream transaction, or Reloadly's refusal. */
export type SendAnswer<T> =
  | { kind: 'accepted'; transaction: T }
  | { kind: 'refused'; httpStatus: number; errorCode: string | null; message: string | null };

/** A UTC time range, for the transaction reports. */
export interface TimeRange {
  from: Date;
  to: Date;
}

export interface TopupRequest {
  operatorId: number;
  /** The amount as an exact decimal text. */
  amount: string;
  useLocalAmount: boolean;
  customIdentifier: string;
  recipientPhone: { countryCode: string; number: string };
}

export interface BillPaymentRequest {
  billerId: number;
  subscriberAccountNumber: string;
  amount: string;
  useLocalAmount: boolean;
  referenceId: string;
}

const PAGE_SIZE = 200;
const MAX_PAGES = 500;

/** Reloadly's airtime and utilities APIs, as typed functions. */
export class ReloadlyApiClient {
  constructor(readonly http: ReloadlyHttp) {}

  async operatorsByCountry(countryCode: string, signal?: AbortSignal): Promise<UpstreamOperator[]> {
    const answer = await this.read(
      'topups',
      `/operators/countries/${encodeURIComponent(countryCode)}`,
      { includeData: 'false', includeBundles: 'false', includePin: 'false' },
      signal,
    );
    return listOf(answer.body)
      .map(operatorOf)
      .filter((operator): operator is UpstreamOperator => operator !== null);
  }

  async operatorById(operatorId: number, signal?: AbortSignal): Promise<UpstreamOperator | null> {
    const answer = await this.read('topups', `/operators/${operatorId}`, {}, signal, true);
    return answer.status === 404 ? null : operatorOf(answer.body);
  }

  async billersByCountry(countryCode: string, signal?: AbortSignal): Promise<UpstreamBiller[]> {
    const billers: UpstreamBiller[] = [];
    for await (const item of this.pages('utilities', '/billers', { countryISOCode: countryCode }, signal)) {
      const biller = billerOf(item);
      if (biller) billers.push(biller);
    }
    return billers;
  }

  async balance(api: ReloadlyApi = 'topups', signal?: AbortSignal): Promise<UpstreamBalance> {
    const answer = await this.read(api, '/accounts/balance', {}, signal);
    const body = objectOf(answer.body);
    const balance = decimalText(body.balance);
    const currencyCode = stringOf(body.currencyCode);
    if (balance === null || currencyCode === null)
      throw new ProviderUnavailableError('reloadly: the balance answer has no balance and currencyCode');
    return { balance, currencyCode, updatedAt: stringOf(body.updatedAt) };
  }

  async sendTopup(request: TopupRequest, signal?: AbortSignal): Promise<SendAnswer<UpstreamTopup>> {
    const json = withDecimal(
      {
        operatorId: request.operatorId,
        amount: AMOUNT_MARK,
        useLocalAmount: request.useLocalAmount,
        customIdentifier: request.customIdentifier,
        recipientPhone: request.recipientPhone,
      },
      request.amount,
    );
    return this.send('topups', '/topups', json, topupOf, signal);
  }

  async topupByTransactionId(transactionId: string, signal?: AbortSignal): Promise<UpstreamTopup | null> {
    const answer = await this.read('topups', `/topups/${encodeURIComponent(transactionId)}/status`, {}, signal, true);
    if (answer.status === 404) return null;
    const body = objectOf(answer.body);
    // The status answer wraps the transaction ({status, transaction}); older answers are the transaction itself.
    const topup = topupOf(body.transaction ?? body);
    return topup && typeof body.status === 'string' ? { ...topup, status: body.status } : topup;
  }

  /** Reads the report filtered by the identifier; every page is checked, in case the filter is not applied. */
  async topupByCustomIdentifier(customIdentifier: string, signal?: AbortSignal): Promise<UpstreamTopup | null> {
    const matches = (topup: UpstreamTopup) => topup.customIdentifier === customIdentifier;
    return this.firstInPages('topups', '/topups/reports/transactions', { customIdentifier }, topupOf, matches, signal);
  }

  async topupReport(range: TimeRange, signal?: AbortSignal): Promise<UpstreamTopup[]> {
    return this.allInPages('topups', '/topups/reports/transactions', reportRange(range), topupOf, signal);
  }

  async payBill(request: BillPaymentRequest, signal?: AbortSignal): Promise<SendAnswer<UpstreamPayment>> {
    const json = withDecimal(
      {
        subscriberAccountNumber: request.subscriberAccountNumber,
        amount: AMOUNT_MARK,
        billerId: request.billerId,
        useLocalAmount: request.useLocalAmount,
        referenceId: request.referenceId,
      },
      request.amount,
    );
    return this.send('utilities', '/pay', json, paymentOf, signal);
  }

  async paymentById(id: string, signal?: AbortSignal): Promise<UpstreamPayment | null> {
    const answer = await this.read('utilities', `/transactions/${encodeURIComponent(id)}`, {}, signal, true);
    return answer.status === 404 ? null : (listOf(answer.body).map(paymentOf).find(Boolean) ?? paymentOf(answer.body));
  }

  async paymentByReferenceId(referenceId: string, signal?: AbortSignal): Promise<UpstreamPayment | null> {
    const matches = (payment: UpstreamPayment) => payment.referenceId === referenceId;
    return this.firstInPages('utilities', '/transactions', { referenceId }, paymentOf, matches, signal);
  }

  async paymentReport(range: TimeRange, signal?: AbortSignal): Promise<UpstreamPayment[]> {
    return this.allInPages('utilities', '/transactions', reportRange(range), paymentOf, signal);
  }

  /** A POST that places an order: accepted when a 2xx answer reads as the transaction, refused otherwise. */
  private async send<Transaction>(
    api: ReloadlyApi,
    path: string,
    json: string,
    read: (body: unknown) => Transaction | null,
    signal?: AbortSignal,
  ): Promise<SendAnswer<Transaction>> {
    const answer = await this.http.call(api, { method: 'POST', path, json, signal });
    const transaction = answer.status >= 200 && answer.status < 300 ? read(answer.body) : null;
    return transaction ? { kind: 'accepted', transaction } : refusalOf(answer);
  }

  /** The first item of a paged list that reads as a transaction and matches (every page is checked). */
  private async firstInPages<Transaction>(
    api: ReloadlyApi,
    path: string,
    query: Record<string, string>,
    read: (item: unknown) => Transaction | null,
    matches: (transaction: Transaction) => boolean,
    signal?: AbortSignal,
  ): Promise<Transaction | null> {
    for await (const item of this.pages(api, path, query, signal)) {
      const transaction = read(item);
      if (transaction !== null && matches(transaction)) return transaction;
    }
    return null;
  }

  /** Every item of a paged list that reads as a transaction. */
  private async allInPages<Transaction>(
    api: ReloadlyApi,
    path: string,
    query: Record<string, string>,
    read: (item: unknown) => Transaction | null,
    signal?: AbortSignal,
  ): Promise<Transaction[]> {
    const transactions: Transaction[] = [];
    for await (const item of this.pages(api, path, query, signal)) {
      const transaction = read(item);
      if (transaction !== null) transactions.push(transaction);
    }
    return transactions;
  }

  private async *pages(
    api: ReloadlyApi,
    path: string,
    query: Record<string, string>,
    signal?: AbortSignal,
  ): AsyncGenerator {
    for (let page = 1; page <= MAX_PAGES; page++) {
      const answer = await this.read(api, path, { ...query, page: String(page), size: String(PAGE_SIZE) }, signal);
      const items = listOf(answer.body);
      yield* items;
      const totalPages = objectOf(answer.body).totalPages;
      // A plain array carries no paging: it is the whole answer.
      if (
        Array.isArray(answer.body) ||
        items.length < PAGE_SIZE ||
        (typeof totalPages === 'number' && page >= totalPages)
      )
        return;
    }
    throw new ProviderUnavailableError(`reloadly: ${path} has more than ${MAX_PAGES} pages`);
  }

  /** A read: any answer but 2xx (and 404 where `notFoundIsAnswer`) means the question is still open. */
  private async read(
    api: ReloadlyApi,
    path: string,
    query: Record<string, string | number>,
    signal?: AbortSignal,
    notFoundIsAnswer = false,
  ): Promise<ReloadlyAnswer> {
    const answer = await this.http.call(api, { method: 'GET', path, query, signal });
    if ((answer.status >= 200 && answer.status < 300) || (notFoundIsAnswer && answer.status === 404)) return answer;
    throw new ProviderUnavailableError(
      `reloadly: GET ${path} answered HTTP ${answer.status}${answer.errorCode ? ` ${answer.errorCode}` : ''}`,
    );
  }
}

const AMOUNT_MARK = '\u0000amount\u0000';

/** JSON with the amount written as the exact decimal literal it is, never through a float. */
function withDecimal(body: Record<string, unknown>, amount: string): string {
  if (!/^\d+(\.\d+)?$/.test(amount)) throw new Error(`not a decimal amount: ${amount}`);
  return JSON.stringify(body).replace(JSON.stringify(AMOUNT_MARK), amount);
}

/** Reports take "yyyy-MM-dd HH:mm:ss" in UTC. */
function reportRange({ from, to }: TimeRange): Record<string, string> {
  const format = (at: Date) => at.toISOString().slice(0, 19).replace('T', ' ');
  return { startDate: format(from), endDate: format(to) };
}

function refusalOf(answer: ReloadlyAnswer): SendAnswer<never> {
  return { kind: 'refused', httpStatus: answer.status, errorCode: answer.errorCode, message: answer.message };
}
