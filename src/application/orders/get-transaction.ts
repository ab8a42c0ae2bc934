import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { parseWalletStreamId } from '../../domain/wallet/wallet.stream';
import { isOpen } from '../../domain/transaction/transaction.decider';
import { Caller } from '../auth/caller';
import { EVENTS_BY_CORRELATION, EventsByCorrelation } from '../ports/events-by-correlation.port';
import { RecordedEvent } from '../ports/event-store.port';
import { debitAmong } from './debit-of-order';
import { OrderView, READ_MODELS, ReadModels } from '../ports/read-models.port';
import { ServiceError } from '../shared/service-error';
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
 * does not show yet is read from the log (its debit, and its outcome and refund when they are
 * there already: a sandbox order answered in its debit's commit reads SUCCESS at once), so a GET
 * right after the POST finds it. Another partner's order, or the same partner's order in the other
 * environment, does not exist for the caller.
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
    const history = await this.events.readByCorrelationId(orderId);
    const debit = debitAmong(history, orderId);
    const wallet = debit ? parseWalletStreamId(debit.streamId) : null;
    if (!debit || !wallet) return null;
    const data = debit.data;
    const placed: OrderView = {
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
    return history.reduce(withOutcome(orderId), placed);
  }
}

/** What the order's later events in the log change of it, as the orders read model would apply them. */
const withOutcome =
  (orderId: string) =>
  (order: OrderView, event: RecordedEvent): OrderView => {
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'TransactionSubmitted':
        return event.data.orderId === orderId && order.status === 'INITIATED'
          ? { ...order, status: 'PENDING', updatedAt: at }
          : order;
      case 'TransactionSettled':
        return event.data.orderId === orderId
          ? {
              ...order,
              status: 'SUCCESS',
              operatorRef: event.data.operatorRef,
              settledAt: event.data.settledAt,
              updatedAt: at,
            }
          : order;
      case 'TransactionFailed':
        return event.data.orderId === orderId
          ? { ...order, status: 'FAILED', failureReason: event.data.reason, updatedAt: at }
          : order;
      case 'TransactionDisputed':
        return event.data.orderId === orderId && isOpen(order.status)
          ? { ...order, status: 'DISPUTED', updatedAt: at }
          : order;
      case 'WalletRefunded':
        return event.data.orderId === orderId ? { ...order, refundedAt: event.data.refundedAt, updatedAt: at } : order;
      default:
        return order;
    }
  };
