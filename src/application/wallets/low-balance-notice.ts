import { Inject, Injectable } from '@nestjs/common';
import { WalletDebited } from '../../domain/wallet/wallet.events';
import { WalletLowBalanceReached, debitCrossesBelow, lowBalanceNoticeStream } from '../../domain/wallet/low-balance';
import { parseWalletStreamId } from '../../domain/wallet/wallet.stream';
import { CLOCK, Clock } from '../ports/clock.port';
import { EVENT_STORE, EventStore, RecordedEvent } from '../ports/event-store.port';
import { Job, JobHandler, JobKind } from '../ports/job-queue.port';
import { Reaction, SettingsAtScheduling, reactionJob } from '../ports/reaction.port';
import { envelope, metadata } from '../shared/event-envelope';
import { deterministicEventId } from '../shared/event-ids';

export const NOTIFY_LOW_BALANCE = 'notify-low-balance' satisfies JobKind;

/** The notices among a batch's jobs (a reaction's batch holds only its own kind). */
const noticesOf = (jobs: readonly Job[]): Job<typeof NOTIFY_LOW_BALANCE>[] =>
  jobs.filter((job): job is Job<typeof NOTIFY_LOW_BALANCE> => job.kind === NOTIFY_LOW_BALANCE);

/**
 * Every debit is a candidate; the job is kept only when the partner's threshold, read in the
 * transaction that schedules it, says this debit crossed it.
 */
export const lowBalanceReactions: Reaction<WalletDebited> = {
  handles: new Set(['WalletDebited']),
  jobsFor(event: RecordedEvent<WalletDebited>): Job[] {
    const wallet = parseWalletStreamId(event.streamId);
    if (!wallet) return [];
    const data = event.data;
    return [
      reactionJob(NOTIFY_LOW_BALANCE, data.orderId, data.placedAt, {
        ...wallet,
        orderId: data.orderId,
        currency: data.currency,
        amount: data.amount,
        balanceAfter: data.balanceAfter,
        debitedAt: data.placedAt,
      }),
    ];
  },
  /** Keeps the notice only for a debit that crossed its partner's threshold; the threshold joins the payload. */
  async stillWanted(jobs: readonly Job[], settings: SettingsAtScheduling): Promise<Job[]> {
    const notices = noticesOf(jobs);
    const thresholdOf = await settings.lowBalanceThresholds(notices.map((job) => job.payload));
    return notices.flatMap((job) => {
      const threshold = thresholdOf(job.payload);
      if (threshold === undefined || !debitCrossesBelow(job.payload, threshold)) return [];
      return [{ ...job, payload: { ...job.payload, threshold } }];
    });
  },
};

/**
 * Records the crossing as `WalletLowBalanceReached` in the wallet's notice stream, with an id
 * derived from the order that crossed: a job run twice (a lease expired, two processes) appends
 * it once. The feed and the webhook announce it from there as `wallet.low_balance`.
 */
@Injectable()
export class NotifyLowBalanceJob implements JobHandler<typeof NOTIFY_LOW_BALANCE> {
  readonly kind = NOTIFY_LOW_BALANCE;

  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  async run(job: Job<typeof NOTIFY_LOW_BALANCE>): Promise<void> {
    const payload = job.payload;
    const threshold = typeof payload.threshold === 'string' ? payload.threshold : null;
    if (threshold === null) return;
    const reached: WalletLowBalanceReached = {
      type: 'WalletLowBalanceReached',
      data: {
        partnerId: payload.partnerId,
        environment: payload.environment,
        orderId: payload.orderId,
        currency: payload.currency,
        threshold,
        balanceAfter: payload.balanceAfter,
        reachedAt: payload.debitedAt,
      },
    };
    const now = this.clock.now();
    const event = envelope(
      reached,
      deterministicEventId(payload.orderId, reached.type),
      metadata({
        partnerId: payload.partnerId,
        environment: payload.environment,
        correlationId: payload.orderId,
        actor: { type: 'system', id: NOTIFY_LOW_BALANCE },
        at: now,
      }),
    );
    // At the stream's known revision (a repeat of the same event id is then a no-op in every store); a
    // concurrent notice of the same wallet makes this run fail and retry.
    const stream = lowBalanceNoticeStream(payload.partnerId, payload.environment);
    const last = await this.store.readLastEvent(stream);
    await this.store.append(stream.id, [event], last ? last.revision : 'no_stream');
  }
}
