import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { PartnerEventListResource, PartnerEventResource } from '../../../shared/partner-event-resources';
import { ResponseOf } from '../../openapi/response-of';
import { AMOUNT_LOCAL, CURRENCY, DATE_TIME } from './schema-formats';

@ApiSchema({
  name: 'PartnerEvent',
  description:
    'An event exactly as its webhook body: transaction.succeeded carries operator_ref, reference and settled_at; ' +
    'transaction.failed carries refunded_at; wallet.low_balance carries available_balance, low_balance_threshold ' +
    'and occurred_at (order_id and amount_local are those of the debit that crossed the threshold).',
})
class PartnerEventDto implements ResponseOf<PartnerEventResource, PartnerEventDto> {
  @ApiProperty({
    type: 'string',
    format: 'uuid',
    description: 'The same id as the webhook delivery (X-Partner-Event-Id): de-duplicate by it',
  })
  event_id!: string;

  @ApiProperty({ type: 'string', enum: ['transaction.succeeded', 'transaction.failed', 'wallet.low_balance'] })
  event!: string;

  @ApiProperty({ type: 'string' })
  order_id!: string;

  @ApiPropertyOptional({ type: 'string', nullable: true, description: 'transaction.succeeded only' })
  operator_ref?: string | null;

  @ApiProperty(AMOUNT_LOCAL)
  amount_local!: string;

  @ApiProperty(CURRENCY)
  currency!: string;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    description: 'transaction.succeeded only: your own reference',
  })
  reference?: string | null;

  @ApiPropertyOptional({ ...DATE_TIME, nullable: true, description: 'transaction.succeeded only' })
  settled_at?: string | null;

  @ApiPropertyOptional({ ...DATE_TIME, nullable: true, description: 'transaction.failed only' })
  refunded_at?: string | null;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    description: 'wallet.low_balance only: the available balance after the debit of order_id',
  })
  available_balance?: string | null;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    description: 'wallet.low_balance only: your threshold, which that debit crossed',
  })
  low_balance_threshold?: string | null;

  @ApiPropertyOptional({
    ...DATE_TIME,
    nullable: true,
    description: 'wallet.low_balance only: when the debit was placed',
  })
  occurred_at?: string | null;
}

@ApiSchema({
  name: 'PartnerEventList',
  description: "One page of the caller's events of the key's environment, oldest first.",
})
export class PartnerEventListDto implements ResponseOf<PartnerEventListResource, PartnerEventListDto> {
  @ApiProperty({ type: 'integer', minimum: 0 })
  count!: number;

  @ApiProperty({ type: () => PartnerEventDto, isArray: true })
  events!: PartnerEventDto[];

  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      "Pass as `after` to read on: the last event's cursor (the `after` given when the page is empty; " +
      'null only before the first event)',
  })
  next_cursor!: string | null;

  @ApiProperty({ type: 'boolean', description: 'More events are already there: read on at once' })
  has_more!: boolean;
}
