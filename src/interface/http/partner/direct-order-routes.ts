import { Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { Caller } from '../../../application/auth/caller';
import { PayBill } from '../../../application/orders/pay-bill';
import { PlaceTopup } from '../../../application/orders/place-topup';
import { PartnerRequestAuthorizer } from '../../shared/partner-request-authorizer';
import { payBill, placeTopup } from '../../shared/requests/order-commands';
import { PayBillDto } from '../../shared/requests/pay-bill.dto';
import { TopupDto } from '../../shared/requests/topup.dto';
import { validatedRequest } from '../../shared/requests/validated-request';
import { answerException } from '../errors/api-exception.filter';
import { BODY } from '../validation/request-body.pipe';
import { requiredIdempotencyKey } from './idempotency-key.guard';
import { sendPlacement } from './placement-answer';

type OrderCommand = (caller: Caller, key: string, body: unknown) => PlaceTopup | PayBill;

/** The value-moving routes OrdersController declares, by path, and the command each places. */
const ORDER_COMMANDS: ReadonlyMap<string, OrderCommand> = new Map<string, OrderCommand>([
  ['/v1/partner/topup', (caller, key, body) => placeTopup(caller, key, validatedRequest(TopupDto, body, BODY))],
  ['/v1/partner/pay-bill', (caller, key, body) => payBill(caller, key, validatedRequest(PayBillDto, body, BODY))],
]);

/**
 * POST /v1/partner/topup and /pay-bill are answered by a Fastify handler instead of Nest's request pipeline
 * (decision 0170). OrdersController still declares them, for the router and the OpenAPI document; when Nest
 * registers one of them, its handler is replaced by one that takes the same steps in the same order as the
 * controller's guards, pipe and exception filter: the key and its rate limit (PartnerAuthGuard), the
 * Idempotency-Key (IdempotencyKeyGuard), the body (RequestBodyPipe), the command, then the stored answer,
 * or the Error body ApiExceptionFilter would send. Call before the application is initialised.
 */
export function answerOrderRoutesDirectly(
  fastify: FastifyInstance,
  authorizer: PartnerRequestAuthorizer,
  commands: CommandBus,
): void {
  const logger = new Logger('ApiExceptionFilter');
  fastify.addHook('onRoute', (route: RouteOptions) => {
    const command = route.method === 'POST' ? ORDER_COMMANDS.get(route.url) : undefined;
    if (!command) return;
    route.handler = async function placeOrder(request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
      try {
        const caller = await authorizer.authorize(request, reply);
        const key = requiredIdempotencyKey(request.headers['idempotency-key']);
        return sendPlacement(reply, await commands.execute(command(caller, key, request.body)));
      } catch (exception) {
        answerException(exception, request, reply, logger);
        return reply;
      }
    };
  });
}
