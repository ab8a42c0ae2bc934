import { OperatorEvent, OPERATOR_EVENTS } from './back-office/operator.events';
import { PartnerEvent, PARTNER_EVENTS } from './partner/partner.events';
import { ReconciliationEvent, RECONCILIATION_EVENTS } from './reconciliation/reconciliation.events';
import { RoutingEvent, ROUTING_EVENTS } from './routing/routing.events';
import { EventTypeTable } from './shared/event-types';
import { TransactionEvent, TRANSACTION_EVENTS } from './transaction/transaction.events';
import { LOW_BALANCE_NOTICE_EVENTS, LowBalanceNoticeEvent } from './wallet/low-balance';
import { WALLET_EVENTS, WalletEvent } from './wallet/wallet.events';

/** Every event the log holds: the union of each stream's events, discriminated by `type`. */
export type LogEvent =
  | PartnerEvent
  | WalletEvent
  | LowBalanceNoticeEvent
  | TransactionEvent
  | RoutingEvent
  | ReconciliationEvent
  | OperatorEvent;

/** Every event type of the log (the compiler refuses this table when a stream's union gains a type it lacks). */
export const LOG_EVENTS: EventTypeTable<LogEvent> = {
  ...PARTNER_EVENTS,
  ...WALLET_EVENTS,
  ...LOW_BALANCE_NOTICE_EVENTS,
  ...TRANSACTION_EVENTS,
  ...ROUTING_EVENTS,
  ...RECONCILIATION_EVENTS,
  ...OPERATOR_EVENTS,
};
