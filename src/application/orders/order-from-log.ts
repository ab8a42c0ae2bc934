import { OrderView, foldOrderView, isOrderViewEvent } from '../../domain/transaction/order-view';
import { EventsByCorrelation } from '../ports/events-by-correlation.port';

/** The order as its events in the log leave it, folded as the orders read model folds them (null: never debited). */
export async function orderFromLog(events: EventsByCorrelation, orderId: string): Promise<OrderView | null> {
  const history = await events.readByCorrelationId(orderId);
  return foldOrderView(orderId, history.filter(isOrderViewEvent));
}
