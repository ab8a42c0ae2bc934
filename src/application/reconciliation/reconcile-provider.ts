import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import {
  Finding,
  FindingKind,
  MISMATCH_KINDS,
  OwnOrder,
  UpstreamTransaction,
  reconcile,
} from '../../domain/reconciliation/reconciliation';
import { ReconciliationMismatchFound, reconciliationStreamId } from '../../domain/reconciliation/reconciliation.events';
import { PROVIDER_NAME } from '../../domain/routing/route';
import { Actor } from '../../domain/shared/actor';
import { CLOCK, Clock } from '../ports/clock.port';
import { EVENT_STORE, EventStore, WrongExpectedRevisionError } from '../ports/event-store.port';
import { PROVIDER_BACK_OFFICES, ProviderBackOffices } from '../ports/provider-back-office.port';
import { ProviderUnavailableError } from '../ports/provider-gateway.port';
import { READ_MODELS, ReadModels } from '../ports/read-models.port';
import { envelope, metadata } from '../shared/event-envelope';
import { deterministicEventId } from '../shared/event-ids';
import { ServiceError } from '../shared/service-error';
import { ReconciliationReport, reportOf } from './reconciliation-report';

const DAY_MS = 86_400_000;

export class ReconcileProvider extends Command<ReconciliationReport> {
  constructor(
    /** Null: the one configured provider that has a report. */
    readonly provider: string | null,
    readonly date: string,
    readonly operator: Actor,
  ) {
    super();
  }
}

/**
 * Reconciles one UTC day of a provider's transaction report with our live orders routed to it
 * (docs/operations.md, "Daily reconciliation"). Every mismatch of a day that has ended is
 * recorded as a ReconciliationMismatchFound event correlated with the order, so `audit order`
 * shows it; running the day again records only what was not found before.
 */
@CommandHandler(ReconcileProvider)
export class ReconcileProviderHandler implements ICommandHandler<ReconcileProvider, ReconciliationReport> {
  constructor(
    @Inject(PROVIDER_BACK_OFFICES) private readonly backOffices: ProviderBackOffices,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ provider: asked, date, operator }: ReconcileProvider): Promise<ReconciliationReport> {
    const start = dayStart(date);
    const end = new Date(start.getTime() + DAY_MS);
    const now = this.clock.now();
    if (start.getTime() > now.getTime())
      throw new ServiceError('validation_failed', `date: ${date} has not begun (UTC)`);
    const provider = this.providerOf(asked);
    const source = this.backOffices.reportsOf(provider);
    if (!source)
      throw new ServiceError('not_found', `provider ${provider} is not configured, or has no transaction report`);
    // A day wider on each side, so an order dated across midnight on one side is still found (see reconcile()).
    const from = new Date(start.getTime() - DAY_MS);
    const to = new Date(end.getTime() + DAY_MS);
    let upstream: UpstreamTransaction[];
    try {
      upstream = await source.transactions(from, to);
    } catch (error) {
      if (error instanceof ProviderUnavailableError)
        throw new ServiceError(
          'provider_unavailable',
          `the transaction report of ${provider} could not be read: ${error.message}`,
        );
      throw error;
    }
    const ours: OwnOrder[] = (await this.readModels.ordersRoutedTo(provider, from.toISOString(), to.toISOString())).map(
      (order) => ({
        orderId: order.orderId,
        partnerId: order.partnerId,
        status: order.status === 'NONE' ? 'INITIATED' : order.status,
        amount: order.amount,
        currency: order.currency,
        placedAt: order.createdAt,
        operatorRef: order.operatorRef,
      }),
    );
    const findings = reconcile({ start, end }, upstream, ours);
    const complete = end.getTime() <= now.getTime();
    const recorded = complete ? await this.record(provider, date, findings, operator, now) : 0;
    return reportOf({ provider, date, complete, generatedAt: now.toISOString(), findings, recorded });
  }

  private providerOf(asked: string | null): string {
    if (asked !== null) {
      if (!PROVIDER_NAME.test(asked))
        throw new ServiceError('validation_failed', 'provider: lower-case letters, digits and -, 2 to 32 characters');
      return asked;
    }
    const names = this.backOffices.reportNames();
    if (names.length === 1) return names[0];
    if (names.length === 0)
      throw new ServiceError('provider_unavailable', 'no live provider with a transaction report is configured');
    throw new ServiceError('validation_failed', `provider: required, one of ${names.join(', ')}`);
  }

  /** Appends the mismatches not recorded before; returns how many were new. */
  private async record(
    provider: string,
    date: string,
    findings: readonly Finding[],
    operator: Actor,
    now: Date,
  ): Promise<number> {
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
            actor: operator,
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

/** The same difference found again (same kind, order and upstream transaction) is the same event. */
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

function dayStart(date: string): Date {
  const start = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(date) ? new Date(`${date}T00:00:00.000Z`) : null;
  if (!start || Number.isNaN(start.getTime()) || !start.toISOString().startsWith(date))
    throw new ServiceError('validation_failed', 'date: a calendar day as YYYY-MM-DD');
  return start;
}
