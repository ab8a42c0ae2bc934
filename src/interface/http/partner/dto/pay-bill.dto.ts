import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsNumber, IsOptional, IsString, MaxLength } from 'class-validator';
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
}
