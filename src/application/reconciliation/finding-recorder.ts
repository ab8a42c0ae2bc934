import { Inject, Injectable } from '@nestjs/common';
import { Finding, FindingKind, MISMATCH_KINDS } from '../../domain/reconciliation/reconciliation';
import { ReconciliationMismatchFound, reconciliationStreamId } from '../../domain/reconciliation/reconciliation.events';
import { Actor } from '../../domain/shared/actor';
import { EVENT_STORE, EventStore, WrongExpectedRevisionError } from '../ports/event-store.port';
import { envelope, metadata } from '../shared/event-envelope';
import { deterministicEventId } from '../shared/event-ids';

/**
 * Records the mismatches of a provider's day as findings for finance (`reconciliation-<provider>-<date>`), each
 * once: the same difference found again (same kind, order and upstream transaction) is the same event.
 */
@Injectable()
export class FindingRecorder {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  /** Appends the mismatches not recorded before; returns how many were new. */
  async record(provider: string, date: string, findings: readonly Finding[], actor: Actor, now: Date): Promise<number> {
    const streamId = reconciliationStreamId(provider, date);
    const mismatches = findings.filter((finding) => MISMATCH_KINDS.includes(finding.kind));
    for (let attempt = 1; ; attempt++) {
      const stored = await this.store.readStream(streamId);
      const known = new Set(stored.map((event) => event.eventId));
      const fresh = mismatches
        .map((finding) => ({ finding, eventId: mismatchEventId(provider, date, finding) }))
        .filter(({ eventId }) => !known.has(eventId));
      if (fresh.length === 0) return 0;
      const events = fresh.map(({ finding, eventId }) =>
        envelope(
          mismatchEvent(provider, date, finding, now),
          eventId,
          metadata({
            partnerId: finding.partnerId,
            environment: 'live',
            correlationId: finding.orderId,
            actor,
            at: now,
          }),
        ),
      );
      try {
        await this.store.append(streamId, events, stored.length ? stored[stored.length - 1].revision : 'no_stream');
        return events.length;
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= 5) throw error;
      }
    }
  }
}

const mismatchEventId = (provider: string, date: string, finding: Finding): string =>
  deterministicEventId(
    'reconciliation',
    provider,
    date,
    finding.kind,
    finding.orderId,
    finding.upstream?.transactionId ?? '-',
  );

function mismatchEvent(provider: string, date: string, finding: Finding, now: Date): ReconciliationMismatchFound {
  return {
    type: 'ReconciliationMismatchFound',
    data: {
      provider,
      date,
      kind: finding.kind as Exclude<FindingKind, 'matched'>,
      orderId: finding.orderId,
      upstream: finding.upstream,
      ours: finding.ours,
      detail: finding.detail,
      foundAt: now.toISOString(),
    },
  };
}
