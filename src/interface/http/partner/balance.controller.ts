import { Controller, Get, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Caller } from '../../../application/auth/caller';
import { GetBalance } from '../../../application/wallets/get-balance';
import { ApiErrorResponses } from '../openapi/api-error-responses';
import { SerializedAs } from '../openapi/serialized-as';
import { BalanceResponseDto } from './dto/balance-response.dto';
import { BalanceResource, balanceResource } from '../../shared/balance-resources';
import { CurrentCaller } from '../../shared/partner-request';
import { PartnerAuthGuard } from './partner-auth.guard';

@ApiTags('wallet')
@ApiBearerAuth()
@Controller('v1/partner')
@UseGuards(PartnerAuthGuard)
export class BalanceController {
  constructor(private readonly queries: QueryBus) {}

  @Get('balance')
  @ApiOperation({ summary: 'Wallet balance', operationId: 'getBalance' })
  @ApiOkResponse({ type: BalanceResponseDto, description: "The wallet of the key's environment" })
  @ApiErrorResponses({})
  @SerializedAs(BalanceResponseDto)
  async balance(@CurrentCaller() caller: Caller): Promise<BalanceResource> {
    return balanceResource(caller, await this.queries.execute(new GetBalance(caller)));
  }
}
