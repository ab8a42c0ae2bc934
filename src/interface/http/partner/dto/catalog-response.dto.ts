import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  BillerConsumerNumberResource,
  BillerListResource,
  BillerParamResource,
  BillerResource,
  OperatorListResource,
  OperatorResource,
} from '../../../shared/catalog-resources';
import { BILLER_CATEGORIES } from '../../../../application/ports/catalog.port';
import { ResponseOf } from '../../openapi/response-of';
import { CORRIDOR, CURRENCY, DECIMAL_AMOUNT, E164_PHONE, ID } from './schema-formats';

@ApiSchema({ name: 'Operator', description: 'A mobile prepaid operator of the corridor.' })
class OperatorDto implements ResponseOf<OperatorResource, OperatorDto> {
  @ApiProperty({ ...ID, description: 'Used as operator_id in POST /topup', example: 101 })
  id!: number;

  @ApiProperty({ type: 'string', description: 'Operator code', example: 'IN_AIRTEL' })
  api_operator_id!: string;

  @ApiProperty({ type: 'string', example: 'Airtel' })
  name!: string;

  @ApiProperty({ type: 'string', enum: ['MOBILE_PREPAID'] })
  category!: string;

  @ApiProperty({ ...DECIMAL_AMOUNT, description: 'Lowest allowed topup amount', example: '10.00' })
  min_amount!: string;

  @ApiProperty({ ...DECIMAL_AMOUNT, description: 'Highest allowed topup amount', example: '5000.00' })
  max_amount!: string;

  @ApiProperty(CURRENCY)
  local_currency!: string;
}

/** What every catalog list carries before its entries. */
abstract class CorridorListDto {
  @ApiProperty(CORRIDOR)
  corridor!: string;

  @ApiProperty(CURRENCY)
  currency!: string;

  @ApiProperty({ type: 'integer', minimum: 0 })
  count!: number;
}

@ApiSchema({
  name: 'OperatorList',
  description: 'The active operators of the corridor, or only the detected one when `phone` was given.',
})
export class OperatorListDto extends CorridorListDto implements ResponseOf<OperatorListResource, OperatorListDto> {
  @ApiPropertyOptional({ ...E164_PHONE, description: 'The queried phone in E.164, present when `phone` was given' })
  phone?: string;

  @ApiProperty({ type: () => OperatorDto, isArray: true })
  operators!: OperatorDto[];
}

@ApiSchema({
  name: 'BillerParam',
  description: 'An extra parameter a biller needs in `params` of bill-info and pay-bill.',
})
class BillerParamDto implements ResponseOf<BillerParamResource, BillerParamDto> {
  @ApiProperty({ type: 'string', example: 'billing_unit' })
  name!: string;

  @ApiProperty({ type: 'string', example: 'Billing Unit (BU)' })
  label!: string;

  @ApiProperty({ type: 'boolean' })
  required!: boolean;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Regular expression the value must match, or null',
    example: '^[0-9]{4}$',
  })
  pattern!: string | null;
}

@ApiSchema({ name: 'BillerConsumerNumber', description: 'What the biller calls the consumer number, and its shape.' })
class BillerConsumerNumberDto implements ResponseOf<BillerConsumerNumberResource, BillerConsumerNumberDto> {
  @ApiProperty({ type: 'string', example: 'CA Number' })
  label!: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Regular expression the consumer number must match, or null',
    example: '^[0-9]{10}$',
  })
  pattern!: string | null;
}

@ApiSchema({
  name: 'Biller',
  description: 'A biller of the corridor (postpaid mobile, utility, and in IN the BBPS billers).',
})
class BillerDto implements ResponseOf<BillerResource, BillerDto> {
  @ApiProperty({ ...ID, description: 'Used as biller_id in bill-info and pay-bill', example: 1005 })
  id!: number;

  @ApiProperty({ type: 'string', example: 'IN_BESCOM' })
  api_biller_id!: string;

  @ApiProperty({ type: 'string', example: 'Bangalore Electricity Supply Company (BESCOM)' })
  name!: string;

  @ApiProperty({ type: 'string', enum: [...BILLER_CATEGORIES], example: 'ELECTRICITY' })
  category!: string;

  @ApiProperty({ type: 'boolean', description: 'Paid through BBPS (India)' })
  bbps!: boolean;

  @ApiProperty(CURRENCY)
  local_currency!: string;

  @ApiProperty({
    type: () => BillerConsumerNumberDto,
    nullable: true,
    description: 'The label and shape of the consumer number, or null when the biller states none',
  })
  consumer_number!: BillerConsumerNumberDto | null;

  @ApiProperty({ type: () => BillerParamDto, isArray: true })
  params!: BillerParamDto[];
}

@ApiSchema({ name: 'BillerList', description: 'The active billers of the corridor, optionally of one category.' })
export class BillerListDto extends CorridorListDto implements ResponseOf<BillerListResource, BillerListDto> {
  @ApiProperty({ type: () => BillerDto, isArray: true })
  billers!: BillerDto[];
}
