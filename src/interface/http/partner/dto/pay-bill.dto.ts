import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNumber, IsOptional, IsString, MaxLength } from 'class-validator';
import { BillInfoDto } from './bill-info.dto';

export class PayBillDto extends BillInfoDto {
  @ApiProperty({ description: 'The amount fetched with POST /bill-info; must match it within 1 unit', example: 500 })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'must be a JSON number' })
  amount!: number;

  @ApiPropertyOptional({ description: 'Your own reference, echoed back', maxLength: 100 })
  @IsOptional()
  @IsString({ message: 'must be a string' })
  @MaxLength(100, { message: 'must be at most 100 characters' })
  reference?: string;
}
