import { ProviderNotSentError, ProviderUnavailableError } from '../../../application/ports/provider-gateway.port';
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
import { REPORT_PAGE_TIMEOUT_MS, readPage } from '../report-pages';
import { BillPaymentRequest, TopupRequest, billPaymentJson, topupJson } from './reloadly-request-bodies';
import { reportTimeOf } from './report-time';
import { decimalText } from './upstream-decimal';

export type SendAnswer<T> =
  | { kind: 'accepted'; transaction: T }
  | { kind: 'refused'; httpStatus: number; errorCode: string | null; message: string | null };

export interface TimeRange {
  from: Date;
  to: Date;
}

const PAGE_SIZE = 200;
const MAX_PAGES = 500;

export class ReloadlyApiClient {
  constructor(
    readonly http: ReloadlyHttp,
    readonly reportTimeZone = 'America/New_York',
  ) {}

  async operatorsByCountry(countryCode: string, signal?: AbortSignal): Promise<UpstreamOperator[]> {
    const path = `/operators/countries/${encodeURIComponent(countryCode)}`;
    const answer = await this.read(
      'topups',
      path,
      { includeData: 'false', includeBundles: 'false', includePin: 'false' },
      signal,
    );
    // A 200 that is no list (a page of HTML) is not "no operators".
    if (!Array.isArray(answer.body) && !Array.isArray(objectOf(answer.body).content))
      throw new ProviderUnavailableError(`reloadly: GET ${path} answered something that is not a list of operators`);
    return listOf(answer.body)
      .map(operatorOf)
      .filter((operator): operator is UpstreamOperator => operator !== null);
  }

  async operatorById(operatorId: number, signal?: AbortSignal): Promise<UpstreamOperator | null> {
    const answer = await this.read('topups', `/operators/${operatorId}`, {}, signal, true);
    if (answer.status === 404) return null;
    const operator = operatorOf(answer.body);
    if (operator?.id !== operatorId)
      throw new ProviderUnavailableError(
        `reloadly: GET /operators/${operatorId} answered something that is not the operator`,
      );
    return operator;
  }

  async billerById(billerId: number, signal?: AbortSignal): Promise<UpstreamBiller | null> {
    for await (const item of this.pages('utilities', '/billers', { id: String(billerId) }, signal)) {
      const biller = billerOf(item);
      if (biller?.id === billerId) return biller;
    }
    return null;
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
    return this.send('topups', '/topups', topupJson(request), topupOf, signal);
  }

  /** The status answer, the transaction or its wrapper `{code, message, status, transaction}`; a 404 is "not known there (yet)": null. */
  async topupByTransactionId(transactionId: string, signal?: AbortSignal): Promise<UpstreamTopup | null> {
    const path = `/topups/${encodeURIComponent(transactionId)}/status`;
    const answer = await this.read('topups', path, {}, signal, true);
    if (answer.status === 404) return null;
    const topup = topupOf(answer.body, transactionId);
    // A 200 that is not this topup (a page of HTML, another transaction) says nothing about it.
    if (topup?.transactionId !== transactionId)
      throw new ProviderUnavailableError(`reloadly: GET ${path} answered something that is not topup ${transactionId}`);
    return topup;
  }

  /** Reads the report filtered by the identifier, checking every page; null only when the whole report holds nothing under it. */
  async topupByCustomIdentifier(
    customIdentifier: string,
    signal?: AbortSignal,
    range?: TimeRange,
  ): Promise<UpstreamTopup | null> {
    const matches = (topup: UpstreamTopup) => topup.customIdentifier === customIdentifier;
    const query = { customIdentifier, ...(range ? this.reportRange(range) : {}) };
    return this.firstInPages(
      'topups',
      '/topups/reports/transactions',
      query,
      { read: itemOf(topupOf), matches, identifier: customIdentifier },
      signal,
    );
  }

  async topupReport(
    range: TimeRange,
    pageTimeoutMs = REPORT_PAGE_TIMEOUT_MS,
    signal?: AbortSignal,
  ): Promise<UpstreamTopup[]> {
    return this.allInPages(
      'topups',
      '/topups/reports/transactions',
      this.reportRange(range),
      itemOf(topupOf),
      signal,
      pageTimeoutMs,
    );
  }

  async payBill(request: BillPaymentRequest, signal?: AbortSignal): Promise<SendAnswer<UpstreamPayment>> {
    return this.send('utilities', '/pay', billPaymentJson(request), paymentOf, signal);
  }

  /** The item of that id in the answer; a 404 is null; a 200 that holds no such payment throws. */
  async paymentById(id: string, signal?: AbortSignal): Promise<UpstreamPayment | null> {
    const path = `/transactions/${encodeURIComponent(id)}`;
    const answer = await this.read('utilities', path, {}, signal, true);
    if (answer.status === 404) return null;
    const items: unknown[] = Array.isArray(answer.body) ? answer.body : [answer.body];
    const payments = items.map((item) => paymentOf(item)).filter((payment) => payment !== null);
    const payment =
      payments.find((candidate) => candidate.id === id) ??
      (items.length === 1 && payments.length === 1 && payments[0].id === null ? { ...payments[0], id } : null);
    if (!payment) throw new ProviderUnavailableError(`reloadly: GET ${path} answered no payment ${id}`);
    return payment;
  }

  async paymentByReferenceId(
    referenceId: string,
    signal?: AbortSignal,
    range?: TimeRange,
  ): Promise<UpstreamPayment | null> {
    const matches = (payment: UpstreamPayment) => payment.referenceId === referenceId;
    const query = { referenceId, ...(range ? this.reportRange(range) : {}) };
    return this.firstInPages(
      'utilities',
      '/transactions',
      query,
      { read: itemOf(paymentOf), matches, identifier: referenceId },
      signal,
    );
  }

  async paymentReport(
    range: TimeRange,
    pageTimeoutMs = REPORT_PAGE_TIMEOUT_MS,
    signal?: AbortSignal,
  ): Promise<UpstreamPayment[]> {
    return this.allInPages(
      'utilities',
      '/transactions',
      this.reportRange(range),
      itemOf(paymentOf),
      signal,
      pageTimeoutMs,
    );
  }

  /** A POST that places an order: accepted when a 2xx reads as the transaction; a 401 or 429 is not sent (decision 0120). */
  private async send<Transaction>(
    api: ReloadlyApi,
    path: string,
    json: string,
    read: (body: unknown) => Transaction | null,
    signal?: AbortSignal,
  ): Promise<SendAnswer<Transaction>> {
    const answer = await this.http.call(api, { method: 'POST', path, json, signal });
    if (answer.status === 401 || answer.status === 429) {
      const code = answer.errorCode ? ` ${answer.errorCode}` : '';
      const after = answer.retryAfterMs !== null ? `; sent again after ${Math.ceil(answer.retryAfterMs / 1000)} s` : '';
      throw new ProviderNotSentError(
        `reloadly: POST ${path} answered HTTP ${answer.status}${code}: the request was turned away unprocessed${after}`,
        { retryAfterMs: answer.retryAfterMs },
      );
    }
    const transaction = answer.status >= 200 && answer.status < 300 ? read(answer.body) : null;
    return transaction ? { kind: 'accepted', transaction } : refusalOf(answer);
  }

  /** The first item of a paged list that matches; an unreadable item carrying our identifier keeps the look-up open. */
  private async firstInPages<Transaction>(
    api: ReloadlyApi,
    path: string,
    query: Record<string, string>,
    wanted: {
      read: (item: unknown) => Transaction | null;
      matches: (transaction: Transaction) => boolean;
      identifier: string;
    },
    signal?: AbortSignal,
  ): Promise<Transaction | null> {
    for await (const item of this.pages(api, path, query, signal)) {
      const transaction = wanted.read(item);
      if (transaction !== null && wanted.matches(transaction)) return transaction;
      if (transaction === null && JSON.stringify(item).includes(JSON.stringify(wanted.identifier)))
        throw new ProviderUnavailableError(
          `reloadly: GET ${path} lists an item with ${wanted.identifier} that does not read as a transaction`,
        );
    }
    return null;
  }

  private async allInPages<Transaction>(
    api: ReloadlyApi,
    path: string,
    query: Record<string, string>,
    read: (item: unknown) => Transaction | null,
    signal?: AbortSignal,
    pageTimeoutMs: number | null = null,
  ): Promise<Transaction[]> {
    const transactions: Transaction[] = [];
    for await (const item of this.pages(api, path, query, signal, pageTimeoutMs)) {
      const transaction = read(item);
      if (transaction !== null) transactions.push(transaction);
    }
    return transactions;
  }

  /** Every item of a paged list, until `totalPages` or `last` says it is over, else an empty or repeated page (never on a short page). */
  private async *pages(
    api: ReloadlyApi,
    path: string,
    query: Record<string, string>,
    signal?: AbortSignal,
    pageTimeoutMs: number | null = null,
  ): AsyncGenerator {
    let previousPlainPage: string | null = null;
    for (let page = 1; page <= MAX_PAGES; page++) {
      const pageQuery = { ...query, page: String(page), size: String(PAGE_SIZE) };
      const answer =
        pageTimeoutMs === null
          ? await this.read(api, path, pageQuery, signal)
          : await readPage({ provider: 'reloadly', path, page, pageTimeoutMs }, signal, (deadline) =>
              this.read(api, path, pageQuery, deadline),
            );
      // A plain array carries no paging fields: pages are read until one is empty, or repeats the
      // one before it (a server that ignores `page` answers the whole list every time).
      if (Array.isArray(answer.body)) {
        const items: unknown[] = answer.body;
        const seen = JSON.stringify(items);
        if (items.length === 0 || seen === previousPlainPage) return;
        previousPlainPage = seen;
        yield* items;
        continue;
      }
      const body = objectOf(answer.body);
      if (!Array.isArray(body.content))
        throw new ProviderUnavailableError(`reloadly: GET ${path} answered something that is not a page of a list`);
      yield* body.content;
      if (typeof body.totalPages === 'number') {
        if (page >= body.totalPages) return;
      } else if (typeof body.last === 'boolean') {
        if (body.last) return;
      } else if (body.content.length === 0) return;
    }
    throw new ProviderUnavailableError(`reloadly: ${path} has more than ${MAX_PAGES} pages`);
  }

  private reportRange({ from, to }: TimeRange): Record<string, string> {
    return { startDate: reportTimeOf(from, this.reportTimeZone), endDate: reportTimeOf(to, this.reportTimeZone) };
  }

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
      { retryAfterMs: answer.retryAfterMs },
    );
  }
}

const itemOf =
  <T>(read: (value: unknown) => T | null) =>
  (item: unknown): T | null =>
    read(item);

function refusalOf(answer: ReloadlyAnswer): SendAnswer<never> {
  return { kind: 'refused', httpStatus: answer.status, errorCode: answer.errorCode, message: answer.message };
}
