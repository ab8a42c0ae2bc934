import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsNumber, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';

@ApiSchema({ name: 'TopupRequest', description: 'A mobile prepaid recharge.' })
export class TopupDto {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 2_147_483_647, description: 'Operator id from GET /operators', example: 101 })
  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: 'must be a positive integer' })
  @Max(2_147_483_647, { message: 'is not a known id' })
  operator_id!: number;

  @ApiProperty({ type: 'string', minLength: 1, maxLength: 20, description: 'Recipient mobile number; the country code is optional when it matches your corridor', example: '+919876540001' })
  @IsString({ message: 'must be a string' })
  @MinLength(1, { message: 'must not be empty' })
  @MaxLength(20, { message: 'must be at most 20 characters' })
  phone!: string;

  @ApiProperty({ type: 'number', minimum: 0, exclusiveMinimum: true, description: "Amount in the corridor currency, a JSON number with at most 2 decimals, within the operator's min_amount and max_amount", example: 100 })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'must be a JSON number' })
  amount!: number;

  @ApiPropertyOptional({ type: 'string', description: 'Your own reference, echoed back exactly (printable Unicode; no control characters)', example: 'inv-2026-0001', maxLength: 100 })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @MaxLength(100, { message: 'must be at most 100 characters' })
  reference?: string;

  @ApiPropertyOptional({
    type: 'boolean',
    description:
      'Dry run: when true, every check of the real request runs (key scope and caps, KYC, operator and corridor, phone, amount, balance, rate limit) and the answer is ' +
      '`{"validate_only": true, "would": {...}}`, what the order would be; nothing is debited or placed, no webhook follows, and the Idempotency-Key stays unused',
    example: false,
  })
  @IsOptional()
  @IsBoolean({ message: 'must be true or false' })
  validate_only?: boolean;
}
