import { Job, JobKind } from '../ports/job-queue.port';

export const JOB_KINDS = {
  submitOrder: 'submit-order',
  pollOrder: 'poll-order',
  refundOrder: 'refund-order',
  holdStuckOrder: 'hold-stuck-order',
  grantSandboxCredit: 'grant-sandbox-credit',
  deliverWebhook: 'deliver-webhook',
} as const satisfies Record<string, JobKind>;

/** The stuck-order check of an order: one per order, whoever arms it. */
export const holdStuckOrderJobId = (orderId: string): string => `${JOB_KINDS.holdStuckOrder}:${orderId}`;

/** The stuck-order check, due when the order reaches the age at which it is held if still without a final answer. */
export const holdStuckOrderJob = (orderId: string, dueAt: Date): Job<'hold-stuck-order'> => ({
  id: holdStuckOrderJobId(orderId),
  kind: JOB_KINDS.holdStuckOrder,
  dueAt,
  payload: { orderId },
});
