import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { IsStringRecord } from '../../validation/validators';

@ApiSchema({ name: 'BillInfoRequest', description: 'Which bill to fetch.' })
export class BillInfoDto {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 2_147_483_647, description: 'Biller id from GET /billers', example: 1005 })
  @IsInt({ message: 'must be an integer' })
  @Min(1, { message: 'must be a positive integer' })
  @Max(2_147_483_647, { message: 'is not a known id' })
  biller_id!: number;

  @ApiProperty({ type: 'string', minLength: 1, maxLength: 40, description: 'The consumer or account number at the biller', example: '1234560001' })
  @IsString({ message: 'must be a string' })
  @MinLength(1, { message: 'must not be empty' })
  @MaxLength(40, { message: 'must be at most 40 characters' })
  consumer_number!: string;

  @ApiPropertyOptional({
    description: 'Extra parameters the biller asks for (see `params` in GET /billers)',
    type: 'object',
    additionalProperties: { type: 'string', maxLength: 100 },
    maxProperties: 10,
    example: { billing_unit: '4521' },
  })
  @IsOptional()
  @IsStringRecord(10, 100)
  params?: Record<string, string>;
}
