import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { parseWalletStreamId } from '../../domain/wallet/wallet.stream';
import { Caller } from '../auth/caller';
import { EVENTS_BY_CORRELATION, EventsByCorrelation } from '../ports/events-by-correlation.port';
import { OrderView, READ_MODELS, ReadModels } from '../ports/read-models.port';
import { ServiceError } from '../shared/service-error';
import { debitOfOrder } from './debit-of-order';
import { TransactionStatusResource, transactionStatusResource } from './order-response';

export class GetTransaction extends Query<TransactionStatusResource> {
  constructor(
    readonly caller: Caller,
    readonly orderId: string,
  ) {
    super();
  }
}

/**
 * The order as the orders read model shows it. An order placed a moment ago that the read model
 * does not show yet is read from its debit in the log (PENDING), so a GET right after the POST
 * finds it. Another partner's order, or the same partner's order in the other environment, does
 * not exist for the caller.
 */
@QueryHandler(GetTransaction)
export class GetTransactionHandler implements IQueryHandler<GetTransaction, TransactionStatusResource> {
  constructor(
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    @Inject(EVENTS_BY_CORRELATION) private readonly events: EventsByCorrelation,
  ) {}

  async execute({ caller, orderId }: GetTransaction): Promise<TransactionStatusResource> {
    const order = (await this.readModels.order(orderId)) ?? (await this.placedJustNow(orderId));
    if (!order || order.partnerId !== caller.partnerId || order.environment !== caller.environment) {
      throw new ServiceError('not_found', `no order ${orderId}`);
    }
    return transactionStatusResource(order);
  }

  private async placedJustNow(orderId: string): Promise<OrderView | null> {
    const debit = await debitOfOrder(this.events, orderId);
    const wallet = debit ? parseWalletStreamId(debit.streamId) : null;
    if (!debit || !wallet) return null;
    const data = debit.data;
    return {
      orderId,
      partnerId: wallet.partnerId,
      environment: wallet.environment,
      status: 'INITIATED',
      amount: data.amount,
      currency: data.currency,
      product: data.product,
      reference: data.reference,
      balanceAfter: data.balanceAfter,
      operatorRef: null,
      settledAt: null,
      refundedAt: null,
      failureReason: null,
      lateAnswer: null,
      answerAfterOutcome: null,
      createdAt: data.placedAt,
      updatedAt: data.placedAt,
    };
  }
}
