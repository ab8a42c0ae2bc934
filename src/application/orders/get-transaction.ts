import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Caller } from '../auth/caller';
import { READ_MODELS, ReadModels } from '../ports/read-models.port';
import { ServiceError } from '../shared/service-error';
import { transactionStatusResource } from './order-response';

export class GetTransaction extends Query<Record<string, unknown>> {
  constructor(
    readonly caller: Caller,
    readonly orderId: string,
  ) {
    super();
  }
}

/** Another partner's order, or the same partner's order in the other environment, does not exist for the caller. */
@QueryHandler(GetTransaction)
export class GetTransactionHandler implements IQueryHandler<GetTransaction, Record<string, unknown>> {
  constructor(@Inject(READ_MODELS) private readonly readModels: ReadModels) {}

  async execute({ caller, orderId }: GetTransaction): Promise<Record<string, unknown>> {
    const order = await this.readModels.order(orderId);
    if (!order || order.partnerId !== caller.partnerId || order.environment !== caller.environment) {
      throw new ServiceError('not_found', `no order ${orderId}`);
    }
    return transactionStatusResource(order);
  }
}
