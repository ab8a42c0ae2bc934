import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Caller } from '../auth/caller';
import { READ_MODELS, ReadModels, StoredOrderView } from '../ports/read-models.port';
import { ServiceError } from '../shared/service-error';

export interface TransactionListRequest {
  status?: 'PENDING' | 'SUCCESS' | 'FAILED';
  createdFrom?: string;
  createdTo?: string;
  reference?: string;
  cursor?: string;
  limit: number;
}

/** One page of the caller's orders, newest first, and the cursor of the next page (null on the last). */
export interface TransactionPage {
  orders: StoredOrderView[];
  nextCursor: string | null;
}

export class ListTransactions extends Query<TransactionPage> {
  constructor(
    readonly caller: Caller,
    readonly request: TransactionListRequest,
  ) {
    super();
  }
}

/** The caller's orders, newest first, one page at a time (keyset pagination, stable under inserts). */
@QueryHandler(ListTransactions)
export class ListTransactionsHandler implements IQueryHandler<ListTransactions, TransactionPage> {
  constructor(@Inject(READ_MODELS) private readonly readModels: ReadModels) {}

  async execute({ caller, request }: ListTransactions): Promise<TransactionPage> {
    const rows = await this.readModels.orders({
      partnerId: caller.partnerId,
      environment: caller.environment,
      publicStatus: request.status,
      createdFrom: request.createdFrom,
      createdTo: request.createdTo,
      reference: request.reference,
      after: request.cursor ? decodeCursor(request.cursor) : undefined,
      limit: request.limit + 1,
    });
    const page = rows.slice(0, request.limit);
    const last = page[page.length - 1];
    return {
      orders: page,
      nextCursor: rows.length > request.limit && last ? encodeCursor(last.createdAt, last.orderId) : null,
    };
  }
}

const encodeCursor = (createdAt: string, orderId: string): string =>
  Buffer.from(JSON.stringify([createdAt, orderId])).toString('base64url');

/** What encodeCursor writes: an instant as toISOString() gives it (years 0001–9999), and an order id. */
const CURSOR_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const CURSOR_ORDER_ID = /^[A-Za-z0-9_-]{1,100}$/;

function decodeCursor(cursor: string): { createdAt: string; orderId: string } {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(parsed) &&
      parsed.length === 2 &&
      typeof parsed[0] === 'string' &&
      typeof parsed[1] === 'string' &&
      CURSOR_INSTANT.test(parsed[0]) &&
      !parsed[0].startsWith('0000') &&
      new Date(parsed[0]).toISOString() === parsed[0] &&
      CURSOR_ORDER_ID.test(parsed[1])
    ) {
      return { createdAt: parsed[0], orderId: parsed[1] };
    }
  } catch {
    // fall through to the refusal below
  }
  throw new ServiceError('validation_failed', 'cursor: not a cursor returned by this endpoint');
}
