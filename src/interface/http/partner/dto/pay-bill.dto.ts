import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsBoolean, IsNumber, IsOptional, IsString, MaxLength } from 'class-validator';
import { BillInfoDto } from './bill-info.dto';

@ApiSchema({ name: 'PayBillRequest', description: 'Payment of a bill fetched with POST /bill-info.' })
export class PayBillDto extends BillInfoDto {
  @ApiProperty({ type: 'number', minimum: 0, exclusiveMinimum: true, description: 'The amount fetched with POST /bill-info, a JSON number; must match it within 1 unit', example: 500 })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'must be a JSON number' })
  amount!: number;

  @ApiPropertyOptional({ type: 'string', description: 'Your own reference, echoed back exactly (printable Unicode; no control characters)', maxLength: 100 })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @MaxLength(100, { message: 'must be at most 100 characters' })
  reference?: string;

  @ApiPropertyOptional({
    type: 'boolean',
    description:
      'Dry run: when true, every check of the real request runs (key scope and caps, KYC, biller and corridor, consumer number and fetched bill, amount, balance, rate limit) and the answer is ' +
      '`{"validate_only": true, "would": {...}}`, what the order would be; nothing is debited or placed, no webhook follows, and the Idempotency-Key stays unused',
    example: false,
  })
  @IsOptional()
  @IsBoolean({ message: 'must be true or false' })
  validate_only?: boolean;
}
