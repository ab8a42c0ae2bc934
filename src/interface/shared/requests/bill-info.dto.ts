import { ApiSchema } from '@nestjs/swagger';
import { IdField, StringRecordField, TextField } from './request-fields';

@ApiSchema({ name: 'BillInfoRequest', description: 'Which bill to fetch.' })
export class BillInfoDto {
  @IdField({ description: 'Biller id from GET /billers', example: 1005 })
  biller_id!: number;

  @TextField(
    { minLength: 1, maxLength: 40 },
    { description: 'The consumer or account number at the biller', example: '1234560001' },
  )
  consumer_number!: string;

  @StringRecordField(
    { maxEntries: 10, maxLength: 100 },
    {
      description: 'Extra parameters the biller asks for (see `params` in GET /billers)',
      example: { billing_unit: '4521' },
      optional: true,
    },
  )
  params?: Record<string, string>;
}
