import { Body, Controller, HttpCode, Post, Res, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiHeader, ApiTags } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';
import { Caller } from '../../../application/auth/caller';
import { FetchBill } from '../../../application/orders/fetch-bill';
import { PlacedOrder } from '../../../application/orders/order-placement';
import { PayBill } from '../../../application/orders/pay-bill';
import { PlaceTopup } from '../../../application/orders/place-topup';
import { BillInfoDto } from './dto/bill-info.dto';
import { PayBillDto } from './dto/pay-bill.dto';
import { TopupDto } from './dto/topup.dto';
import { IdempotencyKey, IdempotencyKeyGuard } from './idempotency-key.guard';
import { CurrentCaller } from './partner-request';
import { PartnerAuthGuard } from './partner-auth.guard';

const IDEMPOTENCY_HEADER = { name: 'Idempotency-Key', required: true, description: 'At least 8 characters, unique per request; retries reuse it' };

@ApiTags('orders')
@ApiBearerAuth()
@Controller('v1/partner')
@UseGuards(PartnerAuthGuard)
export class OrdersController {
  constructor(private readonly commands: CommandBus) {}

  @Post('topup')
  @HttpCode(200)
  @ApiHeader(IDEMPOTENCY_HEADER)
  @UseGuards(IdempotencyKeyGuard)
  async topup(
    @CurrentCaller() caller: Caller,
    @IdempotencyKey() key: string,
    @Body() body: TopupDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    return send(reply, await this.commands.execute(new PlaceTopup(caller, key, { ...body })));
  }

  @Post('bill-info')
  @HttpCode(200)
  billInfo(@CurrentCaller() caller: Caller, @Body() body: BillInfoDto): Promise<Record<string, unknown>> {
    return this.commands.execute(new FetchBill(caller, { ...body }));
  }

  @Post('pay-bill')
  @HttpCode(200)
  @ApiHeader(IDEMPOTENCY_HEADER)
  @UseGuards(IdempotencyKeyGuard)
  async payBill(
    @CurrentCaller() caller: Caller,
    @IdempotencyKey() key: string,
    @Body() body: PayBillDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    return send(reply, await this.commands.execute(new PayBill(caller, key, { ...body })));
  }
}

/** The stored body is sent as it is, so a replay is byte-for-byte the first answer. */
function send(reply: FastifyReply, placed: PlacedOrder): string {
  void reply.header('content-type', 'application/json; charset=utf-8');
  if (placed.replayed) void reply.header('Idempotent-Replay', 'true');
  return placed.body;
}
