import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { startOfDay } from '../../../application/audit/wallet-ledger';
import { Caller } from '../../../application/auth/caller';
import { GetTransaction } from '../../../application/orders/get-transaction';
import { ListTransactions } from '../../../application/orders/list-transactions';
import { ServiceError } from '../../../application/shared/service-error';
import { ApiErrorResponses } from '../openapi/api-error-responses';
import { SerializedAs } from '../openapi/serialized-as';
import { TransactionListDto, TransactionStatusDto } from './dto/transaction-response.dto';
import { CurrentCaller } from '../../shared/partner-request';
import {
  TransactionListResource,
  TransactionStatusResource,
  transactionListResource,
  transactionStatusResource,
} from '../../shared/order-resources';
import { PartnerAuthGuard } from './partner-auth.guard';
import { refuseUnknownQuery } from '../validation/query-values';

const STATUSES = ['PENDING', 'SUCCESS', 'FAILED'] as const;

@ApiTags('transactions')
@ApiBearerAuth()
@Controller('v1/partner/transactions')
@UseGuards(PartnerAuthGuard)
export class TransactionsController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':order_id')
  @ApiOperation({
    summary: 'Status of one transaction',
    description: 'The authoritative source for any transaction.',
    operationId: 'getTransaction',
  })
  @ApiParam({
    name: 'order_id',
    description: 'order_id from the Order of POST /topup or POST /pay-bill',
    schema: { type: 'string', minLength: 1 },
  })
  @ApiOkResponse({ type: TransactionStatusDto, description: 'The transaction; status is PENDING, SUCCESS or FAILED' })
  @ApiErrorResponses({ 400: true, 404: 'not_found: the order does not exist or belongs to another partner' })
  @SerializedAs(TransactionStatusDto)
  async transaction(
    @CurrentCaller() caller: Caller,
    @Param('order_id') orderId: string,
  ): Promise<TransactionStatusResource> {
    if (orderId.length > 100) throw new ServiceError('not_found', 'no such order');
    return this.queries.execute(new GetTransaction(caller, orderId)).then(transactionStatusResource);
  }

  @Get()
  @ApiOperation({ summary: 'Your transactions, newest first, one page at a time', operationId: 'listTransactions' })
  @ApiOkResponse({ type: TransactionListDto, description: 'One page; follow next_cursor for the next' })
  @ApiErrorResponses({ 400: 'validation_failed: a filter is unknown or malformed, named at the start of `detail`' })
  @ApiQuery({ name: 'status', required: false, enum: STATUSES })
  @ApiQuery({
    name: 'created_from',
    required: false,
    description: 'ISO 8601 date or date-time, inclusive',
    schema: { type: 'string' },
    example: '2026-01-01T00:00:00Z',
  })
  @ApiQuery({
    name: 'created_to',
    required: false,
    description: 'ISO 8601 date or date-time, exclusive',
    schema: { type: 'string' },
    example: '2026-02-01T00:00:00Z',
  })
  @ApiQuery({
    name: 'reference',
    required: false,
    description: 'Only orders with exactly this reference',
    schema: { type: 'string', maxLength: 100 },
  })
  @ApiQuery({
    name: 'cursor',
    required: false,
    description: 'next_cursor of the previous page',
    schema: { type: 'string' },
  })
  @ApiQuery({
    name: 'limit',
    required: false,
    description: '1 to 100, default 50',
    schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
  })
  async list(
    @CurrentCaller() caller: Caller,
    @Query() query: Record<string, unknown>,
  ): Promise<TransactionListResource> {
    const text = (name: string): string | undefined => {
      const value = query[name];
      if (value === undefined) return undefined;
      if (typeof value !== 'string') throw new ServiceError('validation_failed', `${name}: give it once`);
      return value;
    };
    refuseUnknownQuery(query, ['status', 'created_from', 'created_to', 'reference', 'cursor', 'limit']);
    const status = text('status');
    if (status !== undefined && !(STATUSES as readonly string[]).includes(status))
      throw new ServiceError('validation_failed', 'status: one of PENDING, SUCCESS, FAILED');
    const dateTime = (name: string): string | undefined => {
      const value = text(name);
      if (value === undefined) return undefined;
      // A real calendar day (no 2020-02-30 rolled over to March), and an instant in years 0001–9999, which the database can hold.
      const shaped =
        /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2}))?$/.test(value) && startOfDay(value.slice(0, 10)) !== null;
      const at = shaped ? Date.parse(value) : Number.NaN;
      const year = Number.isNaN(at) ? 0 : new Date(at).getUTCFullYear();
      if (year < 1 || year > 9999)
        throw new ServiceError('validation_failed', `${name}: an ISO 8601 date or date-time`);
      return new Date(at).toISOString();
    };
    const limitText = text('limit');
    const limit = limitText === undefined ? 50 : Number(limitText);
    if (!/^\d{1,3}$/.test(limitText ?? '50') || limit < 1 || limit > 100)
      throw new ServiceError('validation_failed', 'limit: an integer from 1 to 100');
    const reference = text('reference');
    if (reference !== undefined && (reference.length > 100 || /[\u0000-\u001f]/.test(reference)))
      throw new ServiceError('validation_failed', 'reference: at most 100 characters');
    const page = await this.queries.execute(
      new ListTransactions(caller, {
        status: status as (typeof STATUSES)[number] | undefined,
        createdFrom: dateTime('created_from'),
        createdTo: dateTime('created_to'),
        reference,
        cursor: text('cursor'),
        limit,
      }),
    );
    return transactionListResource(page);
  }
}
