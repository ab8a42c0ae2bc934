import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { currencyOf } from '../../domain/corridor/corridor';
import { Currency } from '../../domain/money/currency';
import { Environment } from '../../domain/shared/environment';
import { EVENT_STORE, EventStore } from '../ports/event-store.port';
import { READ_MODELS, ReadModels } from '../ports/read-models.port';
import { ServiceError } from '../shared/service-error';
import { DAY_MS, Period, WalletLedgerEntry, isWithin, startOfDay, walletLedger } from './wallet-ledger';

export interface WalletAudit {
  partnerId: string;
  environment: Environment;
  currency: Currency;
  /** Every event of the wallet in the period, oldest first; the running balance counts from the wallet's first event. */
  entries: AsyncIterable<WalletLedgerEntry>;
}

export class AuditWallet extends Query<WalletAudit> {
  constructor(
    readonly partnerId: string,
    readonly environment: Environment,
    /** First day included, YYYY-MM-DD (UTC). */
    readonly fromDate?: string,
    /** Last day included, YYYY-MM-DD (UTC). */
    readonly toDate?: string,
  ) {
    super();
  }
}

/** A wallet's full history for finance: every credit, debit and refund with who did it and the balance after it. */
@QueryHandler(AuditWallet)
export class AuditWalletHandler implements IQueryHandler<AuditWallet, WalletAudit> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
  ) {}

  async execute({ partnerId, environment, fromDate, toDate }: AuditWallet): Promise<WalletAudit> {
    const period = periodOf(fromDate, toDate);
    const partner = await this.readModels.partner(partnerId);
    if (!partner) throw new ServiceError('not_found', `no partner ${partnerId}`);
    const currency = currencyOf(partner.corridor);
    const store = this.store;
    async function* entries(): AsyncGenerator<WalletLedgerEntry> {
      for await (const entry of walletLedger(store, partnerId, environment, currency)) {
        if (isWithin(entry, period)) yield entry;
      }
    }
    return { partnerId, environment, currency, entries: entries() };
  }
}

function periodOf(fromDate: string | undefined, toDate: string | undefined): Period {
  const day = (name: string, value: string | undefined): number | null => {
    if (value === undefined) return null;
    const start = startOfDay(value);
    if (start === null) throw new ServiceError('validation_failed', `${name}: a date as YYYY-MM-DD`);
    return start;
  };
  const from = day('from', fromDate);
  const lastDay = day('to', toDate);
  const to = lastDay === null ? null : lastDay + DAY_MS;
  if (from !== null && to !== null && from >= to)
    throw new ServiceError('validation_failed', 'from: must not be after to');
  return { from, to };
}
