import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Caller } from '../auth/caller';
import { EVENTS_BY_CORRELATION, EventsByCorrelation } from '../ports/events-by-correlation.port';
import { READ_MODELS, ReadModels, StoredOrderView } from '../ports/read-models.port';
import { orderFromLog } from './order-from-log';
import { ServiceError } from '../shared/service-error';

export class GetTransaction extends Query<StoredOrderView> {
  constructor(
    readonly caller: Caller,
    readonly orderId: string,
  ) {
    super();
  }
}

/**
 * The order as the orders read model shows it; one placed a moment ago that it does not show yet is folded from
 * the log the same way, so a GET right after the POST finds it (decision 0021). Other partners' or environments'
 * orders do not exist for the caller.
 */
@QueryHandler(GetTransaction)
export class GetTransactionHandler implements IQueryHandler<GetTransaction, StoredOrderView> {
  constructor(
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    @Inject(EVENTS_BY_CORRELATION) private readonly events: EventsByCorrelation,
  ) {}

  async execute({ caller, orderId }: GetTransaction): Promise<StoredOrderView> {
    const order = (await this.readModels.order(orderId)) ?? (await orderFromLog(this.events, orderId));
    if (!order || order.partnerId !== caller.partnerId || order.environment !== caller.environment) {
      throw new ServiceError('not_found', `no order ${orderId}`);
    }
    return order;
  }
}
