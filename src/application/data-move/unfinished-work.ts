import { WalletCredited, WalletDebited, WalletRefunded } from '../../domain/wallet/wallet.events';
import { parseWalletStreamId } from '../../domain/wallet/wallet.stream';
import { PartnerOnboarded } from '../../domain/partner/partner.events';
import { TransactionInitiated } from '../../domain/transaction/transaction.events';
import { RecordedEvent } from '../ports/event-store.port';
import { Job } from '../ports/job-queue.port';
import { JOB_KINDS } from '../shared/job-kinds';
import { holdStuckOrderJob } from '../settlement/stuck-order-check';
import { orderReactions } from '../settlement/order-reactions';
import { Reaction } from '../ports/reaction.port';

const FINAL_OR_HELD = new Set(['TransactionSettled', 'TransactionFailed', 'TransactionDisputed']);

/**
 * The work a history leaves undone, for a store that receives the history without the job queue that went
 * with it (`data import`). Fed every event in global order, it gives the jobs the service would have pending:
 * - a debit whose order was never submitted: its submission (the reaction's own job);
 * - a failure not yet refunded: the refund; a partner not yet granted its sandbox credit: the grant;
 * - an order submitted without a final answer and not held: a poll now, and its stuck-order check one
 *   STUCK_ORDER_AFTER_SECONDS from now (the downtime of the move does not count against the provider, and the
 *   poll answers first).
 * Webhook deliveries are not in the log, so none is scheduled again (an operator can resend one).
 */
export class UnfinishedWork {
  private readonly unsubmitted = new Map<string, RecordedEvent>();
  private readonly unrefunded = new Map<string, RecordedEvent>();
  private readonly ungranted = new Map<string, RecordedEvent>();
  private readonly open = new Map<string, { environment: string }>();

  constructor(private readonly reactions: Reaction = orderReactions()) {}

  observe(event: RecordedEvent): void {
    switch (event.type) {
      case 'WalletDebited':
        this.unsubmitted.set((event.data as WalletDebited['data']).orderId, event);
        return;
      case 'WalletRefunded':
        this.unrefunded.delete((event.data as WalletRefunded['data']).orderId);
        return;
      case 'WalletCredited':
        if ((event.data as WalletCredited['data']).kind === 'sandbox_grant')
          this.ungranted.delete(parseWalletStreamId(event.streamId)?.partnerId ?? '');
        return;
      case 'PartnerOnboarded':
        this.ungranted.set((event.data as PartnerOnboarded['data']).partnerId, event);
        return;
      case 'TransactionInitiated': {
        const data = event.data as TransactionInitiated['data'];
        this.unsubmitted.delete(data.orderId);
        this.open.set(data.orderId, { environment: data.environment });
        return;
      }
    }
    if (!FINAL_OR_HELD.has(event.type)) return;
    const orderId = (event.data as { orderId: string }).orderId;
    this.open.delete(orderId);
    if (event.type === 'TransactionFailed') this.unrefunded.set(orderId, event);
  }

  jobs(now: Date, stuckOrderAfterMs: number): Job[] {
    const reacted = [...this.unsubmitted.values(), ...this.unrefunded.values(), ...this.ungranted.values()].flatMap(
      (event) => this.reactions.jobsFor(event),
    );
    const followed = [...this.open].flatMap(([orderId, order]): Job[] => [
      {
        id: `${JOB_KINDS.pollOrder}:${orderId}:${now.getTime()}`,
        kind: JOB_KINDS.pollOrder,
        dueAt: now,
        payload: { orderId, environment: order.environment },
      },
      holdStuckOrderJob(orderId, new Date(now.getTime() + stuckOrderAfterMs)),
    ]);
    return [...reacted, ...followed];
  }
}
