export const JOB_KINDS = {
  submitOrder: 'submit-order',
  pollOrder: 'poll-order',
  refundOrder: 'refund-order',
  holdStuckOrder: 'hold-stuck-order',
  grantSandboxCredit: 'grant-sandbox-credit',
  deliverWebhook: 'deliver-webhook',
} as const;

/** The stuck-order check armed for every debited order. */
export const holdStuckOrderJobId = (orderId: string): string => `${JOB_KINDS.holdStuckOrder}:${orderId}`;
