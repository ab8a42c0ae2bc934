import { ApiSchema } from '@nestjs/swagger';
import { AmountField, FlagField, TextField } from './request-fields';
import { BillInfoDto } from './bill-info.dto';

@ApiSchema({ name: 'PayBillRequest', description: 'Payment of a bill fetched with POST /bill-info.' })
export class PayBillDto extends BillInfoDto {
  @AmountField({
    description: 'The amount fetched with POST /bill-info, a JSON number; must match it within 1 unit',
    example: 500,
  })
  amount!: number;

  @TextField(
    { maxLength: 100 },
    {
      description: 'Your own reference, echoed back exactly (printable Unicode; no control characters)',
      optional: true,
    },
  )
  reference?: string;

  @FlagField({
    description:
      'Dry run: when true, every check of the real request runs (key scope and caps, KYC, biller and corridor, consumer number and fetched bill, amount, balance, rate limit) and the answer is ' +
      '`{"validate_only": true, "would": {...}}`, what the order would be; nothing is debited or placed, no webhook follows, and the Idempotency-Key stays unused',
    example: false,
    optional: true,
  })
  validate_only?: boolean;
}
