import { Inject, Injectable } from '@nestjs/common';
import { Finding, OwnOrder, UpstreamTransaction, reconcile } from '../../domain/reconciliation/reconciliation';
import { PROVIDER_NAME } from '../../domain/routing/route';
import { CLOCK, Clock } from '../ports/clock.port';
import { PROVIDER_BACK_OFFICES, ProviderBackOffices, ProviderReportSource } from '../ports/provider-back-office.port';
import { READ_MODELS, ReadModels } from '../ports/read-models.port';
import { ServiceError } from '../shared/service-error';

const DAY_MS = 86_400_000;

/** One UTC day of one provider, checked and ready to be judged. */
export interface ProviderDay {
  provider: string;
  date: string;
  start: Date;
  end: Date;
  source: ProviderReportSource;
}

/** A day judged: the findings, and how many of our orders of the day are still open. */
export interface JudgedDay {
  day: ProviderDay;
  /** False while the day (UTC) is not over: its figures may still change. */
  complete: boolean;
  at: Date;
  findings: Finding[];
  openOrders: number;
}

/**
 * Reads one UTC day of a provider's transaction report and our live orders routed to it, both a day
 * wider on each side, and judges them (domain/reconciliation/reconciliation.ts); writes nothing.
 */
@Injectable()
export class ProviderDays {
  constructor(
    @Inject(PROVIDER_BACK_OFFICES) private readonly backOffices: ProviderBackOffices,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The day asked for, refused (ServiceError) when it is malformed, has not begun, or names no provider with a report. */
  dayOf(asked: string | null, date: string): ProviderDay {
    const start = dayStart(date);
    if (start.getTime() > this.clock.now().getTime())
      throw new ServiceError('validation_failed', `date: ${date} has not begun (UTC)`);
    const provider = this.providerOf(asked);
    const source = this.backOffices.reportsOf(provider);
    if (!source)
      throw new ServiceError('not_found', `provider ${provider} is not configured, or has no transaction report`);
    return { provider, date, start, end: new Date(start.getTime() + DAY_MS), source };
  }

  /** Reads both sides and judges the day; a report that cannot be read throws the provider's error as it is. */
  async judge(day: ProviderDay): Promise<JudgedDay> {
    // A day wider on each side, so an order dated across midnight on one side is still found (see reconcile()).
    const from = new Date(day.start.getTime() - DAY_MS);
    const to = new Date(day.end.getTime() + DAY_MS);
    const upstream: UpstreamTransaction[] = await day.source.transactions(from, to);
    const views = await this.readModels.ordersRoutedTo(day.provider, from.toISOString(), to.toISOString());
    const ours: OwnOrder[] = views.map((order) => ({
      orderId: order.orderId,
      partnerId: order.partnerId,
      status: order.status === 'NONE' ? 'INITIATED' : order.status,
      amount: order.amount,
      currency: order.currency,
      placedAt: order.createdAt,
      operatorRef: order.operatorRef,
    }));
    const at = this.clock.now();
    const placedInDay = (order: OwnOrder) => {
      const placed = Date.parse(order.placedAt);
      return placed >= day.start.getTime() && placed < day.end.getTime();
    };
    return {
      day,
      complete: day.end.getTime() <= at.getTime(),
      at,
      findings: reconcile({ start: day.start, end: day.end }, upstream, ours),
      openOrders: ours.filter((order) => placedInDay(order) && !['SUCCESS', 'FAILED'].includes(order.status)).length,
    };
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
