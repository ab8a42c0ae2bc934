import { ApiSchema } from '@nestjs/swagger';
import { AmountField, TextField } from './request-fields';
import { BillInfoDto } from './bill-info.dto';

@ApiSchema({ name: 'PayBillRequest', description: 'Payment of a bill fetched with POST /bill-info.' })
export class PayBillDto extends BillInfoDto {
  @AmountField({ description: 'The amount fetched with POST /bill-info, a JSON number; must match it within 1 unit', example: 500 })
  amount!: number;

  @TextField({ maxLength: 100 }, { description: 'Your own reference, echoed back exactly (printable Unicode; no control characters)', optional: true })
  reference?: string;
}
