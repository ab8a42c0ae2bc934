import { JobKind } from '../ports/job-queue.port';

/** The kinds of durable job, one handler each (besides notify-low-balance, named in wallets/low-balance-notice.ts). */
export const JOB_KINDS = {
  submitOrder: 'submit-order',
  pollOrder: 'poll-order',
  refundOrder: 'refund-order',
  holdStuckOrder: 'hold-stuck-order',
  grantSandboxCredit: 'grant-sandbox-credit',
  deliverWebhook: 'deliver-webhook',
  reconcileProvider: 'reconcile-provider',
} as const satisfies Record<string, JobKind>;
