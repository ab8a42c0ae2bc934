import { WalletDebited } from '../../domain/wallet/wallet.events';
import { parseWalletStreamId } from '../../domain/wallet/wallet.stream';
import { PartnerOnboarded } from '../../domain/partner/partner.events';
import { TransactionFailed } from '../../domain/transaction/transaction.events';
import { Environment } from '../../domain/shared/environment';
import { mayHaveReachedProvider } from '../../domain/transaction/provider-may-have-it';
import { RecordedEvent } from '../ports/event-store.port';
import { Job } from '../ports/job-queue.port';
import { JOB_KINDS } from '../shared/job-kinds';
import { holdStuckOrderJob } from '../settlement/stuck-order-check';
import { orderReactions } from '../settlement/order-reactions';
import { lookUpJob } from '../settlement/order-lifecycle';
import { Reaction } from '../ports/reaction.port';

interface OpenOrderProgress {
  environment: Environment;
  /** The provider acknowledged it, or an attempt was recorded in doubt: the log already says it may be there. */
  answeredOrInDoubt: boolean;
}

const SUBMISSION_MAY_HAVE_RUN =
  'the history was moved in with data import: a submission run may have been under way when it was exported';

/**
 * The jobs a history leaves pending, for a store that receives it without its job queue (decision 0090); fed every
 * event in global order. A live order with no answer and not yet in doubt is put in doubt by its first job
 * (`inDoubtReason`): the log cannot tell whether a submission was under way, so it is looked up, never resent.
 */
export class UnfinishedWork {
  private readonly unsubmitted = new Map<string, RecordedEvent<WalletDebited>>();
  private readonly unrefunded = new Map<string, RecordedEvent<TransactionFailed>>();
  private readonly ungranted = new Map<string, RecordedEvent<PartnerOnboarded>>();
  private readonly open = new Map<string, OpenOrderProgress>();
  /** Held orders, each still followed at its provider until its horizon (decision 0117). */
  private readonly held = new Map<string, Environment>();

  constructor(
    private readonly reactions: Reaction<WalletDebited | TransactionFailed | PartnerOnboarded> = orderReactions(),
  ) {}

  observe(event: RecordedEvent): void {
    if (mayHaveReachedProvider(event)) {
      const order = this.open.get(event.data.orderId);
      if (order) order.answeredOrInDoubt = true;
      return;
    }
    switch (event.type) {
      case 'WalletDebited':
        this.unsubmitted.set(event.data.orderId, event);
        return;
      case 'WalletRefunded':
        this.unrefunded.delete(event.data.orderId);
        return;
      case 'WalletCredited':
        if (event.data.kind === 'sandbox_grant')
          this.ungranted.delete(parseWalletStreamId(event.streamId)?.partnerId ?? '');
        return;
      case 'PartnerOnboarded':
        this.ungranted.set(event.data.partnerId, event);
        return;
      case 'TransactionInitiated': {
        const data = event.data;
        this.unsubmitted.delete(data.orderId);
        this.open.set(data.orderId, { environment: data.environment, answeredOrInDoubt: false });
        return;
      }
      case 'TransactionDisputed': {
        const order = this.open.get(event.data.orderId);
        // A sandbox provider has no horizon: its held orders are not asked about again.
        if (order?.environment === 'live') this.held.set(event.data.orderId, order.environment);
        this.open.delete(event.data.orderId);
        return;
      }
      case 'TransactionSettled':
        this.open.delete(event.data.orderId);
        this.held.delete(event.data.orderId);
        return;
      case 'TransactionFailed':
        this.open.delete(event.data.orderId);
        this.held.delete(event.data.orderId);
        this.unrefunded.set(event.data.orderId, event);
        return;
    }
  }

  jobs(now: Date, stuckOrderAfterMs: number): Job[] {
    const submissions = [...this.unsubmitted.values()].flatMap((event) =>
      this.reactions
        .jobsFor(event)
        .map((job) =>
          job.kind === JOB_KINDS.submitOrder && job.payload.environment === 'live'
            ? { ...job, payload: { ...job.payload, inDoubtReason: SUBMISSION_MAY_HAVE_RUN } }
            : job,
        ),
    );
    const reacted = [...this.unrefunded.values(), ...this.ungranted.values()].flatMap((event) =>
      this.reactions.jobsFor(event),
    );
    const followed = [...this.open].flatMap(([orderId, order]): Job[] => [
      lookUpJob(
        order.environment === 'live' && !order.answeredOrInDoubt
          ? { orderId, environment: order.environment, inDoubtReason: SUBMISSION_MAY_HAVE_RUN }
          : { orderId, environment: order.environment },
        now,
      ),
      holdStuckOrderJob(orderId, new Date(now.getTime() + stuckOrderAfterMs)),
    ]);
    // A held order is looked up now; that look-up schedules its next one on the hold's own times.
    const stillHeld = [...this.held].map(([orderId, environment]) => lookUpJob({ orderId, environment }, now));
    return [...submissions, ...reacted, ...followed, ...stillHeld];
  }
}
