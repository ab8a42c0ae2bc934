import { Inject } from '@nestjs/common';
import { Command, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { OwnOrder, UpstreamTransaction, reconcile } from '../../domain/reconciliation/reconciliation';
import { PROVIDER_NAME } from '../../domain/routing/route';
import { Actor } from '../../domain/shared/actor';
import { CLOCK, Clock } from '../ports/clock.port';
import { PROVIDER_BACK_OFFICES, ProviderBackOffices } from '../ports/provider-back-office.port';
import { ProviderUnavailableError } from '../ports/provider-gateway.port';
import { READ_MODELS, ReadModels } from '../ports/read-models.port';
import { ServiceError } from '../shared/service-error';
import { FindingRecorder } from './finding-recorder';
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
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly findings: FindingRecorder,
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
    const recorded = complete ? await this.findings.record(provider, date, findings, operator, now) : 0;
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
}

function dayStart(date: string): Date {
  const start = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(date) ? new Date(`${date}T00:00:00.000Z`) : null;
  if (!start || Number.isNaN(start.getTime()) || !start.toISOString().startsWith(date))
    throw new ServiceError('validation_failed', 'date: a calendar day as YYYY-MM-DD');
  return start;
}
