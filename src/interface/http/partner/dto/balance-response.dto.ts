import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { BalanceResource } from '../../../shared/balance-resources';
import { ResponseOf } from '../../openapi/response-of';
import { CORRIDOR, CURRENCY, DATE_TIME, DECIMAL_AMOUNT, ENVIRONMENT } from './schema-formats';

@ApiSchema({ name: 'Balance', description: "The wallet of the key's environment, in the corridor currency." })
export class BalanceResponseDto implements ResponseOf<BalanceResource, BalanceResponseDto> {
  @ApiProperty({ ...DECIMAL_AMOUNT, description: 'Wallet balance' })
  available!: string;

  @ApiProperty(CURRENCY)
  currency!: string;

  @ApiProperty(CORRIDOR)
  corridor!: string;

  @ApiProperty({ ...DATE_TIME, description: 'When the balance last changed' })
  updated_at!: string;

  @ApiProperty({ ...ENVIRONMENT, description: 'Decided by the key prefix: svc_live_ or svc_test_' })
  environment!: string;
}
