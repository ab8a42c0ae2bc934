import { ApiSchema } from '@nestjs/swagger';
import { AmountField, FlagField, IdField, TextField } from './request-fields';

@ApiSchema({ name: 'TopupRequest', description: 'A mobile prepaid recharge.' })
export class TopupDto {
  @IdField({ description: 'Operator id from GET /operators', example: 101 })
  operator_id!: number;

  @TextField(
    { minLength: 1, maxLength: 20 },
    {
      description: 'Recipient mobile number; the country code is optional when it matches your corridor',
      example: '+919876540001',
    },
  )
  phone!: string;

  @AmountField({
    description:
      "Amount in the corridor currency, a JSON number with at most 2 decimals, within the operator's min_amount and max_amount",
    example: 100,
  })
  amount!: number;

  @TextField(
    { maxLength: 100 },
    {
      description: 'Your own reference, echoed back exactly (printable Unicode; no control characters)',
      example: 'inv-2026-0001',
      optional: true,
    },
  )
  reference?: string;

  @FlagField({
    description:
      'Dry run: when true, every check of the real request runs (key scope and caps, KYC, operator and corridor, phone, amount, balance, rate limit) and the answer is ' +
      '`{"validate_only": true, "would": {...}}`, what the order would be; nothing is debited or placed, no webhook follows, and the Idempotency-Key stays unused',
    example: false,
    optional: true,
  })
  validate_only?: boolean;
}
