import { Controller, Get, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Caller } from '../../../application/auth/caller';
import { GetBalance } from '../../../application/wallets/get-balance';
import { CurrentCaller } from './partner-request';
import { PartnerAuthGuard } from './partner-auth.guard';

@ApiTags('wallet')
@ApiBearerAuth()
@Controller('v1/partner')
@UseGuards(PartnerAuthGuard)
export class BalanceController {
  constructor(private readonly queries: QueryBus) {}

  @Get('balance')
  balance(@CurrentCaller() caller: Caller): Promise<Record<string, unknown>> {
    return this.queries.execute(new GetBalance(caller));
  }
}
