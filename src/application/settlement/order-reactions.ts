import { WalletDebited } from '../../domain/wallet/wallet.events';
import { TransactionFailed } from '../../domain/transaction/transaction.events';
import { PartnerOnboarded } from '../../domain/partner/partner.events';
import { parseWalletStreamId } from '../../domain/wallet/wallet.stream';
import { RecordedEvent } from '../ports/event-store.port';
import { Job } from '../ports/job-queue.port';
import { Reaction, reactionJob } from '../ports/reaction.port';
import { JOB_KINDS } from '../shared/job-kinds';
import { initiationOfDebit } from './initiation-of-debit';

type OrderReactionEvent = WalletDebited | TransactionFailed | PartnerOnboarded;

/**
 * What the log asks to be done next: a debit submits its order (unless its answer was written with it), an
 * explicit failure refunds the wallet, a new partner gets the sandbox starting credit.
 */
export function orderReactions(): Reaction<OrderReactionEvent> {
  return {
    handles: new Set(['WalletDebited', 'TransactionFailed', 'PartnerOnboarded']),
    jobsFor(event: RecordedEvent<OrderReactionEvent>): Job[] {
      switch (event.type) {
        case 'WalletDebited': {
          const wallet = parseWalletStreamId(event.streamId);
          if (!wallet) return [];
          const data = event.data;
          // Its answer was written with the debit, in the order's own stream: nothing to submit.
          if (data.answeredWithDebit) return [];
          return [reactionJob(JOB_KINDS.submitOrder, data.orderId, data.placedAt, initiationOfDebit(data, wallet))];
        }
        case 'TransactionFailed':
          return [
            reactionJob(JOB_KINDS.refundOrder, event.data.orderId, event.data.failedAt, {
              orderId: event.data.orderId,
            }),
          ];
        case 'PartnerOnboarded': {
          const { partnerId, corridor, onboardedAt } = event.data;
          return [reactionJob(JOB_KINDS.grantSandboxCredit, partnerId, onboardedAt, { partnerId, corridor })];
        }
      }
    },
  };
}
