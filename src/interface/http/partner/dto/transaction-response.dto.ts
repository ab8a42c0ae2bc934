import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { TransactionListResource, TransactionStatusResource } from '../../../shared/order-resources';
import { ResponseOf } from '../../openapi/response-of';
import { AMOUNT_LOCAL, CURRENCY, DATE_TIME, E164_PHONE, ID, PUBLIC_STATUSES } from './schema-formats';

@ApiSchema({
  name: 'TransactionStatus',
  description: 'The authoritative state of a transaction. Only PENDING, SUCCESS and FAILED are ever shown.',
})
export class TransactionStatusDto implements ResponseOf<TransactionStatusResource, TransactionStatusDto> {
  @ApiProperty({ type: 'string', minLength: 1 })
  order_id!: string;

  @ApiProperty({ type: 'string', enum: [...PUBLIC_STATUSES] })
  status!: string;

  @ApiProperty(AMOUNT_LOCAL)
  amount_local!: string;

  @ApiProperty(CURRENCY)
  currency!: string;

  @ApiProperty({ type: 'string', nullable: true, description: "The operator's reference, set on SUCCESS" })
  operator_ref!: string | null;

  @ApiProperty({ ...DATE_TIME, nullable: true, description: 'Set on SUCCESS' })
  settled_at!: string | null;

  @ApiProperty({ ...DATE_TIME, nullable: true, description: 'Set on FAILED, when the wallet was refunded' })
  refunded_at!: string | null;

  @ApiPropertyOptional({ type: 'string', nullable: true, description: 'Your own reference' })
  reference?: string | null;

  @ApiPropertyOptional({ ...ID, description: 'Present for a topup' })
  operator_id?: number;

  @ApiPropertyOptional({ ...E164_PHONE, description: 'Present for a topup' })
  phone?: string;

  @ApiPropertyOptional({ ...ID, description: 'Present for a bill payment' })
  biller_id?: number;

  @ApiPropertyOptional({ type: 'string', minLength: 1, description: 'Present for a bill payment' })
  consumer_number?: string;

  @ApiPropertyOptional(DATE_TIME)
  created_at?: string;
}

@ApiSchema({ name: 'TransactionList', description: "One page of the caller's transactions, newest first." })
export class TransactionListDto implements ResponseOf<TransactionListResource, TransactionListDto> {
  @ApiProperty({ type: 'integer', minimum: 0 })
  count!: number;

  @ApiProperty({ type: () => TransactionStatusDto, isArray: true })
  transactions!: TransactionStatusDto[];

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Pass as `cursor` for the next page; null on the last page',
  })
  next_cursor!: string | null;
}
