import { OrderKind } from '../../domain/wallet/order-product';
import { DryRunResources, OrderResources } from '../orders/order-response';

/**
 * Writes the 200 answers of POST /topup and POST /pay-bill as the bytes that are sent and kept
 * with the Idempotency-Key for replays (so they are written before the debit commits, not by the
 * HTTP layer).
 */
export interface OrderAnswerWriter {
  /** The Order resource of a placed order. */
  placed<Kind extends OrderKind>(order: OrderResources[Kind], kind: Kind): string;
  /** The answer of a dry run (`validate_only`). */
  dryRun<Kind extends OrderKind>(answer: DryRunResources[Kind], kind: Kind): string;
}

export const ORDER_ANSWER_WRITER = Symbol('ORDER_ANSWER_WRITER');

/** Plain JSON.stringify, where no schema-compiled writer is bound (processes that place no orders). */
export const JSON_ORDER_ANSWERS: OrderAnswerWriter = {
  placed: (order) => JSON.stringify(order),
  dryRun: (answer) => JSON.stringify(answer),
};
