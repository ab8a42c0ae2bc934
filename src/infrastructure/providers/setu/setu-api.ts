import { ProviderUnavailableError } from '../../../application/ports/provider-gateway.port';
import { REPORT_PAGE_TIMEOUT_MS, readPage } from '../report-pages';
import { SetuAnswer, SetuHttp } from './setu-http';
import {
  SetuBiller,
  SetuFetch,
  SetuPayment,
  SetuTransaction,
  billerOf,
  dataOf,
  fetchOf,
  listOf,
  nextCursorOf,
  objectOf,
  paymentOf,
  stringOf,
  transactionOf,
} from './setu-records';
import { SETU_PATHS } from './setu-settings';

export type { SetuBiller, SetuFetch, SetuPayment, SetuTransaction } from './setu-records';

/** What a request that registers work (a fetch, a payment) got: its refId, a duplicate's refId, or a refusal. */
export type RegisterAnswer =
  | { kind: 'accepted'; refId: string }
  | { kind: 'duplicate'; refId: string | null; message: string | null }
  | { kind: 'refused'; httpStatus: number; code: string | null; message: string | null };

export interface FetchRequest {
  agent: Record<string, string>;
  billerId: string;
  mobile: string;
  customerParams: { name: string; value: string }[];
}

export interface PaymentRequest {
  /** The fetch's refId. */
  refId: string;
  amountPaise: bigint;
  mode: string;
  paymentRefId: string;
  timestamp: string;
  accountInfo: string;
  remitterName: string;
}

/** Dates (YYYY-MM-DD) of the timestamps we sent with payments, both ends included. */
export interface DateRange {
  startDate: string;
  endDate: string;
}

const PAGE_SIZE = 250;
const MAX_PAGES = 400;

/** Setu's BBPS BillPay v2 API, as typed functions. */
export class SetuApiClient {
  constructor(readonly http: SetuHttp) {}

  fetchRequest(request: FetchRequest, signal?: AbortSignal): Promise<RegisterAnswer> {
    return this.register(
      SETU_PATHS.fetchRequest,
      {
        agent: request.agent,
        biller: { id: request.billerId },
        customer: { mobile: request.mobile, customerParams: request.customerParams },
      },
      signal,
    );
  }

  /** The fetch's state; a refId Setu does not know is a fault here (we had it from Setu). */
  async fetchResponse(refId: string, signal?: AbortSignal): Promise<SetuFetch> {
    const answer = await this.post(SETU_PATHS.fetchResponse, { refId }, signal);
    const fetched = answer.status === 200 ? fetchOf(answer.body) : null;
    if (!fetched) throw unanswered('POST', SETU_PATHS.fetchResponse, answer);
    return fetched;
  }

  payBill(request: PaymentRequest, signal?: AbortSignal): Promise<RegisterAnswer> {
    return this.register(
      SETU_PATHS.paymentRequest,
      {
        refId: request.refId,
        paymentDetails: {
          // Paise fit a JSON number exactly far beyond any bill (2^53 paise).
          amount: Number(request.amountPaise),
          mode: request.mode,
          paymentRefId: request.paymentRefId,
          timestamp: request.timestamp,
          accountInfo: request.accountInfo,
        },
        remitter: { name: request.remitterName },
      },
      signal,
    );
  }

  /** A payment by the refId its request answered, or null when Setu does not know that refId. */
  async payment(refId: string, signal?: AbortSignal): Promise<SetuPayment | null> {
    const answer = await this.post(SETU_PATHS.paymentResponse, { refId }, signal);
    if (answer.status === 200) {
      const payment = paymentOf(answer.body);
      if (payment) return payment;
    }
    if (answer.status === 404 || (answer.status === 400 && answer.errorCode === 'invalid-ref-id')) return null;
    throw unanswered('POST', SETU_PATHS.paymentResponse, answer);
  }

  /**
   * Every list entry of a payment we sent under this paymentRefId (every page of the range is read): after a
   * failure at BBPS, Setu takes a new payment under the same paymentRefId and fetch, with a refId of its own.
   */
  async transactionsByPaymentRef(
    paymentRefId: string,
    range: DateRange,
    signal?: AbortSignal,
  ): Promise<SetuTransaction[]> {
    const found: SetuTransaction[] = [];
    for await (const item of this.pages(SETU_PATHS.transactions, { ...range }, signal)) {
      const transaction = transactionOf(item);
      if (transaction?.paymentRefId === paymentRefId) found.push(transaction);
    }
    return found;
  }

  /** The whole list of the range; each page has `pageTimeoutMs` of its own. */
  async transactions(
    range: DateRange,
    pageTimeoutMs = REPORT_PAGE_TIMEOUT_MS,
    signal?: AbortSignal,
  ): Promise<SetuTransaction[]> {
    const transactions: SetuTransaction[] = [];
    for await (const item of this.pages(SETU_PATHS.transactions, { ...range }, signal, pageTimeoutMs)) {
      const transaction = transactionOf(item);
      if (transaction) transactions.push(transaction);
    }
    return transactions;
  }

  async billers(signal?: AbortSignal): Promise<SetuBiller[]> {
    const billers: SetuBiller[] = [];
    for await (const item of this.pages(SETU_PATHS.billers, {}, signal)) {
      const biller = billerOf(item);
      if (biller) billers.push(biller);
    }
    return billers;
  }

  async billerById(id: string, signal?: AbortSignal): Promise<SetuBiller | null> {
    const answer = await this.read(SETU_PATHS.billers, { ids: id }, signal);
    return (
      listOf(dataOf(answer.body).billers)
        .map(billerOf)
        .find((biller) => biller?.id === id) ?? null
    );
  }

  /** A POST that registers work: accepted with its refId, a 409 duplicate (with the first request's refId), or refused. */
  private async register(path: string, json: unknown, signal?: AbortSignal): Promise<RegisterAnswer> {
    const answer = await this.post(path, json, signal);
    const data = dataOf(answer.body);
    if (answer.status === 409) {
      const duplicate = objectOf(data.duplicate);
      return {
        kind: 'duplicate',
        refId: stringOf(duplicate.refId) ?? stringOf(data.refId),
        message: stringOf(duplicate.message) ?? answer.message,
      };
    }
    const refId = stringOf(data.refId);
    if (answer.status >= 200 && answer.status < 300 && refId) return { kind: 'accepted', refId };
    return { kind: 'refused', httpStatus: answer.status, code: answer.errorCode, message: answer.message };
  }

  /** Every item of a cursor-paged list; with `pageTimeoutMs`, each page has that long of its own (under `signal`). */
  private async *pages(
    path: string,
    query: Record<string, string>,
    signal?: AbortSignal,
    pageTimeoutMs: number | null = null,
  ): AsyncGenerator {
    let after: string | null = null;
    for (let page = 1; page <= MAX_PAGES; page++) {
      const pageQuery = { ...query, limit: String(PAGE_SIZE), ...(after ? { after } : {}) };
      const answer =
        pageTimeoutMs === null
          ? await this.read(path, pageQuery, signal)
          : await readPage({ provider: 'setu', path, page, pageTimeoutMs }, signal, (deadline) =>
              this.read(path, pageQuery, deadline),
            );
      const data = dataOf(answer.body);
      yield* listOf(data.transactions ?? data.billers);
      after = nextCursorOf(answer.body);
      if (!after) return;
    }
    throw new ProviderUnavailableError(`setu: ${path} has more than ${MAX_PAGES} pages`);
  }

  private post(path: string, json: unknown, signal?: AbortSignal): Promise<SetuAnswer> {
    return this.http.call({ method: 'POST', path, json, signal });
  }

  /** A read: any answer but 2xx means the question is still open. */
  private async read(path: string, query: Record<string, string>, signal?: AbortSignal): Promise<SetuAnswer> {
    const answer = await this.http.call({ method: 'GET', path, query, signal });
    if (answer.status >= 200 && answer.status < 300) return answer;
    throw unanswered('GET', path, answer);
  }
}

function unanswered(method: string, path: string, answer: SetuAnswer): ProviderUnavailableError {
  const code = answer.errorCode ? ` ${answer.errorCode}` : '';
  return new ProviderUnavailableError(`setu: ${method} ${path} answered HTTP ${answer.status}${code}`);
}
