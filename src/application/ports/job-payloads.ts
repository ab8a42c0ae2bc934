import { Corridor } from '../../domain/corridor/corridor';
import { Currency } from '../../domain/money/currency';
import { RouteTarget } from '../../domain/routing/route';
import { Environment } from '../../domain/shared/environment';
import { OrderProduct } from '../../domain/wallet/order-product';
import { PartnerEventFactsData, WebhookEventName } from '../webhooks/webhook-events';

/*
 * What each kind of job carries, as stored in the jobs table (JSON). A kind's payload is read back by its handler
 * exactly as it was scheduled, so a field may only be added (optional), never renamed, while jobs of it may wait.
 */

/** Sends a debited order upstream. */
export interface SubmitOrderPayload {
  orderId: string;
  partnerId: string;
  environment: Environment;
  amount: string;
  currency: Currency;
  product: OrderProduct;
  reference: string | null;
  placedAt: string;
  /** Live orders: the route fixed at placement (absent from jobs scheduled before routes existed). */
  route?: RouteTarget | null;
  /**
   * Set when a run of this order's submission may have reached the provider without the log saying so
   * (a history moved in with `data import`): the order is put in doubt with this reason before anything
   * else, so it is looked up, never sent as new.
   */
  inDoubtReason?: string;
}

/** A look-up of an order the provider left open; `inDoubtReason` as for a submission. */
export interface PollOrderPayload {
  orderId: string;
  environment: Environment;
  inDoubtReason?: string;
}

/** One delivery attempt of a webhook. */
export interface DeliverWebhookPayload {
  deliveryId: string;
  event: WebhookEventName;
  orderId: string;
  partnerId: string;
  environment: Environment;
  attempt: number;
  /** An operator's re-send: one attempt, no further automatic retries. */
  manual: boolean;
  /** What the triggering event said (operator_ref and settled_at, or refunded_at). */
  facts: PartnerEventFactsData;
}

/** A debit that may have taken the wallet below its partner's low-balance threshold. */
export interface NotifyLowBalancePayload {
  partnerId: string;
  environment: Environment;
  orderId: string;
  currency: Currency;
  amount: string;
  balanceAfter: string;
  debitedAt: string;
  /** The partner's threshold when the debit was processed, added when the notice is scheduled (`stillWanted`). */
  threshold?: string;
}

/** One provider's reconciliation of one UTC day (decision 0123). */
export interface ReconcileProviderPayload {
  provider: string;
  /** The UTC day judged (YYYY-MM-DD). */
  date: string;
  /**
   * `scheduled`: the day that just ended, due at RECONCILIATION_AT; its run schedules the next day's and the
   * earlier days still in doubt. `in_doubt`: an earlier day judged again because it had orders in doubt.
   */
  trigger: 'scheduled' | 'in_doubt';
}

/** The payload of each kind of job, by kind. */
export interface JobPayloads {
  'submit-order': SubmitOrderPayload;
  'poll-order': PollOrderPayload;
  'refund-order': { orderId: string };
  'hold-stuck-order': { orderId: string };
  'grant-sandbox-credit': { partnerId: string; corridor: Corridor };
  'deliver-webhook': DeliverWebhookPayload;
  'notify-low-balance': NotifyLowBalancePayload;
  'reconcile-provider': ReconcileProviderPayload;
}

export type JobKind = keyof JobPayloads;

/** Every kind (the compiler refuses this table when a kind is added to JobPayloads without it). */
export const JOB_KIND_NAMES: Readonly<Record<JobKind, true>> = {
  'submit-order': true,
  'poll-order': true,
  'refund-order': true,
  'hold-stuck-order': true,
  'grant-sandbox-credit': true,
  'deliver-webhook': true,
  'notify-low-balance': true,
  'reconcile-provider': true,
};
