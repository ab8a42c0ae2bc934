import { ProviderNotSentError, ProviderUnavailableError } from '../../../application/ports/provider-gateway.port';
import { REPORT_PAGE_TIMEOUT_MS, readPage } from '../report-pages';
import { SetuAnswer, SetuHttp } from './setu-http';
import {
  SetuBiller,
  SetuFetch,
  SetuPayment,
  SetuTransaction,
  billerOf,
  fetchOf,
  nextPageOf,
  objectOf,
  paymentOf,
  stringOf,
  transactionOf,
} from './setu-records';
import { SETU_PATHS } from './setu-settings';

export type { SetuBiller, SetuFetch, SetuPayment, SetuTransaction } from './setu-records';

export type RegisterAnswer =
  | { kind: 'accepted'; refId: string }
  | { kind: 'duplicate'; refId: string | null; message: string | null }
  | { kind: 'refused'; httpStatus: number; code: string | null; message: string | null };

interface FetchRequest {
  agent: Record<string, string>;
  billerId: string;
  mobile: string;
  customerParams: { name: string; value: string }[];
}

interface PaymentRequest {
  refId: string;
  amountPaise: bigint;
  mode: string;
  paymentRefId: string;
  timestamp: string;
  accountInfo: string;
  remitterName: string;
}

export interface DateRange {
  startDate: string;
  endDate: string;
}

/**
 * The transactions list read whole over a range, for one paymentRefId: the entries that carry it, and how many
 * entries carry none (or cannot be read), any of which might be the payment (docs/decisions/0121-setu-absence-and-answers.md).
 */
interface PaymentListing {
  matching: SetuTransaction[];
  unattributed: number;
}

const PAGE_SIZE = 250;
const MAX_PAGES = 400;

/**
 * Setu's BBPS BillPay v2 API, as typed functions. Only an answer in Setu's documented envelope is read: anything
 * else (an HTML page, `success: false` with a 200, a JSON without `data`, a list that is not a list) throws
 * ProviderUnavailableError and never reads as "nothing there" (docs/decisions/0121-setu-absence-and-answers.md).
 */
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
      false,
      signal,
    );
  }

  async fetchResponse(refId: string, signal?: AbortSignal): Promise<SetuFetch> {
    const answer = await this.post(SETU_PATHS.fetchResponse, { refId }, signal);
    const fetched = answer.status === 200 && answer.envelope.kind === 'data' ? fetchOf(answer.envelope.data) : null;
    if (!fetched) throw unanswered('POST', SETU_PATHS.fetchResponse, answer);
    return fetched;
  }

  /** A payment request; one refused before anything was processed (429, 401) throws ProviderNotSentError. */
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
      true,
      signal,
    );
  }

  async payment(refId: string, signal?: AbortSignal): Promise<SetuPayment | null> {
    const answer = await this.post(SETU_PATHS.paymentResponse, { refId }, signal);
    if (answer.status === 200 && answer.envelope.kind === 'data') {
      const payment = paymentOf(answer.envelope.data);
      if (payment) return payment;
    }
    if (answer.status === 400 && answer.errorCode === 'invalid-ref-id') return null;
    throw unanswered('POST', SETU_PATHS.paymentResponse, answer);
  }

  /**
   * Every list entry of a payment we sent under this paymentRefId, every page of the range read (the list has no
   * paymentRefId filter): after a failure at BBPS, Setu takes a new payment under the same paymentRefId and fetch,
   * with a refId of its own.
   */
  async transactionsByPaymentRef(
    paymentRefId: string,
    range: DateRange,
    signal?: AbortSignal,
  ): Promise<PaymentListing> {
    const listing: PaymentListing = { matching: [], unattributed: 0 };
    for await (const item of this.pages(SETU_PATHS.transactions, 'transactions', { ...range }, signal)) {
      const transaction = transactionOf(item);
      if (!transaction?.paymentRefId) listing.unattributed++;
      else if (transaction.paymentRefId === paymentRefId) listing.matching.push(transaction);
    }
    return listing;
  }

  async transactions(
    range: DateRange,
    pageTimeoutMs = REPORT_PAGE_TIMEOUT_MS,
    signal?: AbortSignal,
  ): Promise<SetuTransaction[]> {
    const transactions: SetuTransaction[] = [];
    for await (const item of this.pages(SETU_PATHS.transactions, 'transactions', { ...range }, signal, pageTimeoutMs)) {
      const transaction = transactionOf(item);
      if (transaction) transactions.push(transaction);
    }
    return transactions;
  }

  async billers(signal?: AbortSignal): Promise<SetuBiller[]> {
    const billers: SetuBiller[] = [];
    for await (const item of this.pages(SETU_PATHS.billers, 'billers', {}, signal)) {
      const biller = billerOf(item);
      if (biller) billers.push(biller);
    }
    return billers;
  }

  async billerById(id: string, signal?: AbortSignal): Promise<SetuBiller | null> {
    const data = await this.read(SETU_PATHS.billers, { ids: id }, signal);
    return (
      listIn(data, 'billers', SETU_PATHS.billers)
        .map(billerOf)
        .find((biller) => biller?.id === id) ?? null
    );
  }

  /**
   * A POST that registers work: accepted with its refId, a 409 duplicate (with the first request's refId), or
   * refused. `sends`: a request Setu would act on (a payment), which a 429 or a 401 proves was not processed.
   */
  private async register(path: string, json: unknown, sends: boolean, signal?: AbortSignal): Promise<RegisterAnswer> {
    const answer = await this.post(path, json, signal);
    if (answer.status === 429 || answer.status === 401) {
      const why = answer.status === 429 ? 'too many requests' : 'the token was refused twice';
      const message = `setu: POST ${path} answered HTTP ${answer.status} (${why}): nothing was processed`;
      if (sends) throw new ProviderNotSentError(message, { retryAfterMs: answer.retryAfterMs });
      throw new ProviderUnavailableError(message, { retryAfterMs: answer.retryAfterMs });
    }
    const envelope = answer.envelope;
    if (answer.status === 409 && envelope.kind === 'data') {
      const duplicate = objectOf(envelope.data.duplicate);
      return {
        kind: 'duplicate',
        refId: stringOf(duplicate.refId) ?? stringOf(envelope.data.refId),
        message: stringOf(duplicate.message),
      };
    }
    const refId = envelope.kind === 'data' ? stringOf(envelope.data.refId) : null;
    if (answer.status >= 200 && answer.status < 300 && refId) return { kind: 'accepted', refId };
    // Only Setu's own words refuse: an answer outside its envelope (or a 2xx without a refId) tells nothing.
    if ((answer.status >= 200 && answer.status < 300) || envelope.kind === 'other' || answer.status === 409)
      throw unanswered('POST', path, answer);
    return { kind: 'refused', httpStatus: answer.status, code: answer.errorCode, message: answer.message };
  }

  /**
   * Every item of a list, page after page; a page that cannot be read, or a list that cannot be read whole, throws.
   * With `pageTimeoutMs`, each page has that long of its own (under `signal`).
   */
  private async *pages(
    path: string,
    field: 'transactions' | 'billers',
    query: Record<string, string>,
    signal?: AbortSignal,
    pageTimeoutMs: number | null = null,
  ): AsyncGenerator {
    let after: string | null = null;
    const seen = new Set<string>();
    for (let page = 1; page <= MAX_PAGES; page++) {
      const pageQuery = { ...query, limit: String(PAGE_SIZE), ...(after ? { after } : {}) };
      const data =
        pageTimeoutMs === null
          ? await this.read(path, pageQuery, signal)
          : await readPage({ provider: 'setu', path, page, pageTimeoutMs }, signal, (deadline) =>
              this.read(path, pageQuery, deadline),
            );
      yield* listIn(data, field, path);
      const next = nextPageOf(data);
      if (next.kind === 'last') return;
      if (next.kind === 'unreadable' || seen.has(next.after))
        throw new ProviderUnavailableError(
          `setu: ${path} names a next page that cannot be followed (${next.kind === 'unreadable' ? next.nextPage : `after=${next.after} again`}); the list cannot be read whole`,
        );
      seen.add(next.after);
      after = next.after;
    }
    throw new ProviderUnavailableError(`setu: ${path} has more than ${MAX_PAGES} pages`);
  }

  private post(path: string, json: unknown, signal?: AbortSignal): Promise<SetuAnswer> {
    return this.http.call({ method: 'POST', path, json, signal });
  }

  private async read(
    path: string,
    query: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const answer = await this.http.call({ method: 'GET', path, query, signal });
    if (answer.status >= 200 && answer.status < 300 && answer.envelope.kind === 'data') return answer.envelope.data;
    throw unanswered('GET', path, answer);
  }
}

function listIn(data: Record<string, unknown>, field: string, path: string): unknown[] {
  const list = data[field];
  if (!Array.isArray(list))
    throw new ProviderUnavailableError(`setu: ${path} answered without a list of ${field} (got ${describe(list)})`);
  return list as unknown[];
}

const describe = (value: unknown): string =>
  value === undefined ? 'nothing' : value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value;

function unanswered(method: string, path: string, answer: SetuAnswer): ProviderUnavailableError {
  const what =
    answer.envelope.kind === 'other'
      ? ` with ${answer.envelope.what}, not Setu's answer envelope`
      : answer.errorCode
        ? ` ${answer.errorCode}`
        : answer.envelope.kind === 'data' && answer.status >= 200 && answer.status < 300
          ? ' without the fields expected'
          : '';
  return new ProviderUnavailableError(`setu: ${method} ${path} answered HTTP ${answer.status}${what}`, {
    retryAfterMs: answer.retryAfterMs,
  });
}
