import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import {
  BillPaymentDryRunResource,
  BillPaymentOrderResource,
  BillPaymentPreviewResource,
  TopupDryRunResource,
  TopupOrderResource,
  TopupPreviewResource,
} from '../../../shared/order-resources';
import { ResponseOf } from '../../openapi/response-of';
import { AMOUNT_LOCAL, CURRENCY, DATE_TIME, DECIMAL_AMOUNT, E164_PHONE, ID } from './schema-formats';

/** The Order resource: the answer of a value-moving call, always PENDING; settlement follows asynchronously. */
abstract class OrderDto {
  @ApiProperty({
    type: 'string',
    minLength: 1,
    description: 'Identifier for GET /transactions/{order_id}',
    example: 'ord_01JH2K3M4N5P6Q7R8S9T0V1W2X',
  })
  order_id!: string;

  @ApiProperty({ type: 'string', enum: ['PENDING'], description: 'Always PENDING in this response' })
  status!: string;

  @ApiProperty({ ...AMOUNT_LOCAL, description: 'The debited amount, four decimal places' })
  amount_local!: string;

  @ApiProperty(CURRENCY)
  currency!: string;

  @ApiProperty({ ...DECIMAL_AMOUNT, description: 'Wallet balance after the debit' })
  balance_after!: string;

  @ApiProperty({ type: 'string', nullable: true, description: 'Your own reference, echoed back' })
  reference!: string | null;

  @ApiProperty(DATE_TIME)
  created_at!: string;
}

@ApiSchema({ name: 'TopupOrder', description: 'The Order of a mobile prepaid topup (status PENDING).' })
export class TopupOrderDto extends OrderDto implements ResponseOf<TopupOrderResource, TopupOrderDto> {
  @ApiProperty({ ...ID, example: 101 })
  operator_id!: number;

  @ApiProperty({ ...E164_PHONE, description: 'The recipient number in E.164' })
  phone!: string;
}

@ApiSchema({ name: 'BillPaymentOrder', description: 'The Order of a bill payment (status PENDING).' })
export class BillPaymentOrderDto extends OrderDto implements ResponseOf<BillPaymentOrderResource, BillPaymentOrderDto> {
  @ApiProperty({ ...ID, example: 1005 })
  biller_id!: number;

  @ApiProperty({ type: 'string', minLength: 1, example: '1234560001' })
  consumer_number!: string;
}

/** What a dry run (`validate_only`) would place: the Order without order_id, status and created_at. */
abstract class OrderPreviewDto {
  @ApiProperty({ ...AMOUNT_LOCAL, description: 'The amount that would be debited, four decimal places' })
  amount_local!: string;

  @ApiProperty(CURRENCY)
  currency!: string;

  @ApiProperty({ ...DECIMAL_AMOUNT, description: 'Wallet balance after the debit, as of now' })
  balance_after!: string;

  @ApiProperty({ type: 'string', nullable: true, description: 'Your own reference, echoed back' })
  reference!: string | null;
}

@ApiSchema({ name: 'TopupPreview', description: 'The topup a dry run would place.' })
class TopupPreviewDto extends OrderPreviewDto implements ResponseOf<TopupPreviewResource, TopupPreviewDto> {
  @ApiProperty({ ...ID, example: 101 })
  operator_id!: number;

  @ApiProperty({ ...E164_PHONE, description: 'The recipient number in E.164' })
  phone!: string;
}

@ApiSchema({ name: 'BillPaymentPreview', description: 'The bill payment a dry run would place.' })
class BillPaymentPreviewDto
  extends OrderPreviewDto
  implements ResponseOf<BillPaymentPreviewResource, BillPaymentPreviewDto>
{
  @ApiProperty({ ...ID, example: 1005 })
  biller_id!: number;

  @ApiProperty({ type: 'string', minLength: 1, example: '1234560001' })
  consumer_number!: string;
}

@ApiSchema({
  name: 'TopupDryRun',
  description: 'The answer of POST /topup with validate_only: every check passed; nothing was debited or placed.',
})
export class TopupDryRunDto implements ResponseOf<TopupDryRunResource, TopupDryRunDto> {
  @ApiProperty({ type: 'boolean', enum: [true] })
  validate_only!: true;

  @ApiProperty({ type: TopupPreviewDto })
  would!: TopupPreviewDto;
}

@ApiSchema({
  name: 'BillPaymentDryRun',
  description: 'The answer of POST /pay-bill with validate_only: every check passed; nothing was debited or placed.',
})
export class BillPaymentDryRunDto implements ResponseOf<BillPaymentDryRunResource, BillPaymentDryRunDto> {
  @ApiProperty({ type: 'boolean', enum: [true] })
  validate_only!: true;

  @ApiProperty({ type: BillPaymentPreviewDto })
  would!: BillPaymentPreviewDto;
}
