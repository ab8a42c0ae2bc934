import { Body, Controller, HttpCode, Post, Res, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  ApiBearerAuth,
  ApiExtraModels,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Caller } from '../../../application/auth/caller';
import { FetchBill } from '../../../application/orders/fetch-bill';
import { ApiErrorResponses } from '../openapi/api-error-responses';
import { BillInfoResponseDto } from './dto/bill-info-response.dto';
import { BillInfoDto } from '../../shared/requests/bill-info.dto';
import { BillPaymentDryRunDto, BillPaymentOrderDto, TopupDryRunDto, TopupOrderDto } from './dto/order-response.dto';
import { PayBillDto } from '../../shared/requests/pay-bill.dto';
import { TopupDto } from '../../shared/requests/topup.dto';
import { billToFetch, payBill, placeTopup } from '../../shared/requests/order-commands';
import { BillInfoResource, billInfoResource } from '../../shared/bill-resources';
import { IdempotencyKey, IdempotencyKeyGuard } from './idempotency-key.guard';
import { CurrentCaller } from '../../shared/partner-request';
import { PartnerAuthGuard } from './partner-auth.guard';
import { sendPlacement } from './placement-answer';

const IDEMPOTENCY_HEADER = {
  name: 'Idempotency-Key',
  required: true,
  description:
    'At least 8 characters, unique per request; retries reuse it. The same key with the same body within 24 hours replays the first answer.',
  schema: { type: 'string', minLength: 8, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
};

/** The 200 answer of a value-moving call; a replay from the idempotency cache says so in a header. */
const REPLAY_HEADER = {
  'Idempotent-Replay': {
    description: 'Present with the value `true` when the answer is the cached first answer for this Idempotency-Key',
    schema: { type: 'string', enum: ['true'] },
  },
};

// POST /topup and /pay-bill are answered by direct-order-routes.ts, which takes these guards', the body pipe's
// and the exception filter's steps itself (decision 0170): a guard, interceptor or pipe added here must be added
// there too. Their methods below declare the routes and their documents, and answer the same way.
@ApiTags('orders')
@ApiBearerAuth()
@ApiExtraModels(TopupOrderDto, TopupDryRunDto, BillPaymentOrderDto, BillPaymentDryRunDto)
@Controller('v1/partner')
@UseGuards(PartnerAuthGuard)
export class OrdersController {
  constructor(private readonly commands: CommandBus) {}

  @Post('topup')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Mobile prepaid topup',
    description: 'Debits the wallet at once and answers PENDING; follow the outcome with GET /transactions/{order_id}.',
    operationId: 'topup',
  })
  @ApiOkResponse({
    schema: { oneOf: [{ $ref: getSchemaPath(TopupOrderDto) }, { $ref: getSchemaPath(TopupDryRunDto) }] },
    headers: REPLAY_HEADER,
    description:
      'The Order, status PENDING; the wallet is already debited. With validate_only: true, a TopupDryRun instead, and nothing debited',
  })
  @ApiErrorResponses({
    400: 'validation_failed (a missing or malformed field, named at the start of `detail`) or idempotency_key_required',
    402: true,
    403: "kyc_required, ip_not_allowed, scope_forbidden (a read-only key), or key_cap_exceeded (above the restricted key's per_order_max, or its daily_max over the last 24 hours; no money moved)",
    404: 'operator_not_found_or_wrong_corridor: `operator_id` is not an operator of your corridor',
    409: true,
    413: true,
    415: true,
    422: "amount_out_of_range: `amount` is outside the operator's min_amount and max_amount",
    503: true,
  })
  @ApiHeader(IDEMPOTENCY_HEADER)
  @UseGuards(IdempotencyKeyGuard)
  async topup(
    @CurrentCaller() caller: Caller,
    @IdempotencyKey() key: string,
    @Body() body: TopupDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    return sendPlacement(reply, await this.commands.execute(placeTopup(caller, key, body)));
  }

  @Post('bill-info')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Fetch the outstanding bill (step 1 of a bill payment)',
    description: 'No Idempotency-Key is needed; nothing is debited.',
    operationId: 'billInfo',
  })
  @ApiOkResponse({ type: BillInfoResponseDto, description: 'The outstanding bill' })
  @ApiErrorResponses({
    400: 'validation_failed: a missing or malformed field, named at the start of `detail` (a missing biller parameter as `params.<name>`)',
    404: 'operator_not_found_or_wrong_corridor (`biller_id` is not a biller of your corridor) or not_found (the biller has no bill for the consumer number)',
    409: 'invalid_state (live keys): the provider that serves this biller cannot fetch its bills, so there is no bill to show or pay; no bill is ever invented',
    413: true,
    415: true,
    422: 'amount_out_of_range (live keys): the biller reports no bill due for the consumer number, so there is nothing to pay; no bill is remembered',
    503: true,
  })
  async billInfo(@CurrentCaller() caller: Caller, @Body() body: BillInfoDto): Promise<BillInfoResource> {
    const bill = await this.commands.execute(new FetchBill(caller, billToFetch(body)));
    return billInfoResource(bill, 'POST /pay-bill');
  }

  @Post('pay-bill')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Pay a fetched bill (step 2 of a bill payment)',
    description:
      'The amount must match the bill fetched with POST /bill-info within 1 unit of the currency. Debits the wallet at once and answers PENDING.',
    operationId: 'payBill',
  })
  @ApiOkResponse({
    schema: { oneOf: [{ $ref: getSchemaPath(BillPaymentOrderDto) }, { $ref: getSchemaPath(BillPaymentDryRunDto) }] },
    headers: REPLAY_HEADER,
    description:
      'The Order, status PENDING; the wallet is already debited. With validate_only: true, a BillPaymentDryRun instead, and nothing debited',
  })
  @ApiErrorResponses({
    400: 'validation_failed (a malformed field, or no current bill: call POST /bill-info first) or idempotency_key_required',
    402: true,
    403: "kyc_required, ip_not_allowed, scope_forbidden (a read-only key), or key_cap_exceeded (above the restricted key's per_order_max, or its daily_max over the last 24 hours; no money moved)",
    404: 'operator_not_found_or_wrong_corridor: `biller_id` is not a biller of your corridor',
    409: true,
    413: true,
    415: true,
    422: 'amount_out_of_range: `amount` differs from the fetched bill by more than 1 unit, or nothing is due',
    503: true,
  })
  @ApiHeader(IDEMPOTENCY_HEADER)
  @UseGuards(IdempotencyKeyGuard)
  async payBill(
    @CurrentCaller() caller: Caller,
    @IdempotencyKey() key: string,
    @Body() body: PayBillDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    return sendPlacement(reply, await this.commands.execute(payBill(caller, key, body)));
  }
}
