import { InitiatedOrder } from '../../domain/transaction/order-view';

/**
 * Writes the 200 answers of POST /topup and POST /pay-bill as the bytes that are sent and kept
 * with the Idempotency-Key for replays (so they are written before the debit commits, not by the
 * HTTP layer).
 */
export interface OrderAnswerWriter {
  /** The Order resource of a placed order. */
  placed(order: InitiatedOrder): string;
  /** The answer of a dry run (`validate_only`) that would place `order`. */
  dryRun(order: InitiatedOrder): string;
}

export const ORDER_ANSWER_WRITER = Symbol('ORDER_ANSWER_WRITER');
