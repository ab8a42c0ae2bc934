import { systemActor } from '../../domain/shared/actor';
import { Environment } from '../../domain/shared/environment';
import { transactionDecider } from '../../domain/transaction/transaction.decider';
import { TransactionEvent, transactionStream } from '../../domain/transaction/transaction.events';
import { WalletDebited } from '../../domain/wallet/wallet.events';
import { OpenedStream } from '../ports/key-binding-append.port';
import { FinalProviderOutcome } from '../ports/provider-gateway.port';
import { decideInTurn } from '../shared/decider-runner';
import { envelope, metadata } from '../shared/event-envelope';
import { EventMetadata } from '../ports/event-store.port';
import { deterministicEventId } from '../shared/event-ids';
import { initiationOfDebit } from './initiation-of-debit';
import { eventIdParts } from './order-event-ids';
import { outcomeCommand } from './provider-answer-commands';

type PlacedBy = { partnerId: string; environment: Environment };

/**
 * The metadata of the order's own events when its answer is known at placement. Taken in the placing request's
 * context (its trace), before the debit is queued: the group commit that opens the stream may run in another
 * request's.
 */
export function answeredAtPlacementMetadata(orderId: string, placedBy: PlacedBy, at: Date): EventMetadata {
  return metadata({
    partnerId: placedBy.partnerId,
    environment: placedBy.environment,
    correlationId: orderId,
    actor: systemActor('settlement'),
    at,
  });
}

/**
 * The order's own stream as its submission would have written it (its initiation and the provider's answer, with
 * the same deterministic ids), for an order answered at placement: opened in the debit's commit (decision 0112).
 */
export function orderStreamAnsweredAtPlacement(
  debited: WalletDebited,
  placedBy: PlacedBy,
  answer: FinalProviderOutcome,
  recorded: EventMetadata,
): OpenedStream<TransactionEvent> {
  const order = initiationOfDebit(debited.data, placedBy);
  const at = new Date(recorded.occurredAt);
  const decision = decideInTurn(
    transactionDecider,
    [{ type: 'InitiateTransaction', order }, outcomeCommand(answer, 'submit', at)],
    transactionDecider.initialState,
  );
  if (!decision.ok) throw new Error(`order ${order.orderId}: ${decision.error.detail}`);
  return {
    streamId: transactionStream(order.orderId).id,
    events: decision.events.map((event) =>
      envelope(event, deterministicEventId(order.orderId, ...eventIdParts(event)), recorded),
    ),
  };
}
