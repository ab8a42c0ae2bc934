import { Job } from '../ports/job-queue.port';
import { JOB_KINDS } from '../shared/job-kinds';

/** The stuck-order check of an order: one per order, whoever arms it. */
export const holdStuckOrderJobId = (orderId: string): string => `${JOB_KINDS.holdStuckOrder}:${orderId}`;

/** The stuck-order check, due when the order reaches the age at which it is held if still without a final answer. */
export const holdStuckOrderJob = (orderId: string, dueAt: Date): Job<'hold-stuck-order'> => ({
  id: holdStuckOrderJobId(orderId),
  kind: JOB_KINDS.holdStuckOrder,
  dueAt,
  payload: { orderId },
});
