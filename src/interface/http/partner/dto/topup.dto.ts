import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsNumber, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';

export class TopupDto {
  @ApiProperty({ description: 'Operator id from GET /operators', example: 101 })
  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: 'must be a positive integer' })
  @Max(2_147_483_647, { message: 'is not a known id' })
  operator_id!: number;

  @ApiProperty({ description: 'Recipient mobile number; the country code is optional when it matches your corridor', example: '+919876540001' })
  @IsString({ message: 'must be a string' })
  @MinLength(1, { message: 'must not be empty' })
  @MaxLength(20, { message: 'must be at most 20 characters' })
  phone!: string;

  @ApiProperty({ description: 'Amount in the corridor currency, a JSON number with at most 2 decimals', example: 100 })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'must be a JSON number' })
  amount!: number;

  @ApiPropertyOptional({ description: 'Your own reference, echoed back', example: 'inv-2026-0001', maxLength: 100 })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @MaxLength(100, { message: 'must be at most 100 characters' })
  reference?: string;
}
