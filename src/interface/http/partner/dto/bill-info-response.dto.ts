import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { BillInfoResource } from '../../../shared/bill-resources';
import { ResponseOf } from '../../openapi/response-of';
import { CURRENCY, DATE_TIME, DECIMAL_AMOUNT, ID } from './schema-formats';

@ApiSchema({
  name: 'BillInfo',
  description: 'The outstanding bill, step 1 of a bill payment. Pay it with POST /pay-bill.',
})
export class BillInfoResponseDto implements ResponseOf<BillInfoResource, BillInfoResponseDto> {
  @ApiProperty({ ...ID, example: 1005 })
  biller_id!: number;

  @ApiProperty({ type: 'string', example: 'Bangalore Electricity Supply Company (BESCOM)' })
  biller_name!: string;

  @ApiProperty({ type: 'string', example: '1234560001' })
  consumer_number!: string;

  @ApiProperty({ type: 'string', example: 'Sandbox Customer 0001' })
  customer_name!: string;

  @ApiProperty({ ...DECIMAL_AMOUNT, description: 'The outstanding amount', example: '500.00' })
  amount!: string;

  @ApiProperty(CURRENCY)
  currency!: string;

  @ApiProperty({
    type: 'string',
    format: 'date',
    description: 'YYYY-MM-DD; in the past when the bill is overdue',
    example: '2026-01-25',
  })
  due_date!: string;

  @ApiProperty({ type: 'string', pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', description: 'YYYY-MM', example: '2025-12' })
  bill_period!: string;

  @ApiProperty({ type: 'string', example: 'SBX-1005-0001-202512' })
  bill_reference!: string;

  @ApiProperty(DATE_TIME)
  fetched_at!: string;

  @ApiProperty({ type: 'string', description: 'A hint to submit the amount through pay-bill' })
  instructions!: string;
}
