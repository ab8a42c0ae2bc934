import { currencyOf } from '../../domain/corridor/corridor';
import { Currency } from '../../domain/money/currency';
import { Money } from '../../domain/money/money';
import { Environment } from '../../domain/shared/environment';
import { EventStore } from '../ports/event-store.port';
import { PartnerView, ReadModels } from '../ports/read-models.port';
import { ServiceError } from '../shared/service-error';
import { walletStreamId } from '../../domain/wallet/wallet.stream';
import { DAY_MS, WalletLedgerEntry, walletLedger } from './wallet-ledger';

/** A day's or a period's figures: the balance it opened and closed with, what moved, and whether it adds up. */
export interface StatementFigures {
  opening: Money;
  debits: Money;
  refunds: Money;
  credits: Money;
  closing: Money;
  counts: { debits: number; refunds: number; credits: number };
  addsUp: boolean;
}

/** One UTC day of a wallet, and the checks of its balances against those its events record. */
export interface StatementDay extends StatementFigures {
  /** YYYY-MM-DD. */
  date: string;
  checks: {
    openingMatchesRecordedBalance: boolean;
    closingMatchesRecordedBalance: boolean;
    everyBalanceAfterMatchesTheFold: boolean;
  };
}

/**
 * Where statements stop: a day to come has none (refused, naming `field`), and today's may still
 * change (`complete` false). `asOf` is the moment the statement was folded.
 */
export function statementHorizon(lastDayStart: number, now: Date, field: string): { asOf: string; complete: boolean } {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  if (lastDayStart > today) {
    throw new ServiceError(
      'validation_failed',
      `${field}: not after today, ${new Date(today).toISOString().slice(0, 10)} (UTC); a day to come has no statement yet`,
    );
  }
  return { asOf: now.toISOString(), complete: lastDayStart < today };
}

/** A partner's wallet of one environment folded into days, with the partner and its currency; 404 for an unknown partner. */
export async function walletStatementDays(
  sources: { store: EventStore; readModels: ReadModels },
  partnerId: string,
  environment: Environment,
  firstDayStart: number,
  dayCount: number,
  /** Hears the wallet's events folded so far and the stream's length when the fold began. */
  progress?: (eventsRead: number, eventsInStream: number) => void,
): Promise<{ partner: PartnerView; currency: Currency; days: StatementDay[] }> {
  const partner = await sources.readModels.partner(partnerId);
  if (!partner) throw new ServiceError('not_found', `no partner ${partnerId}`);
  const currency = currencyOf(partner.corridor);
  const last = progress ? await sources.store.readLastEvent(walletStreamId(partnerId, environment)) : null;
  const inStream = last === null ? 0 : last.revision + 1;
  const days = await statementDays(
    walletLedger(sources.store, partnerId, environment, currency, progress && ((read) => progress(read, inStream))),
    currency,
    firstDayStart,
    dayCount,
  );
  return { partner, currency, days };
}

/** What one slot of time (the days before the period, or one day of it) holds after the fold. */
interface Slot {
  signed: Money;
  debits: Money;
  refunds: Money;
  credits: Money;
  counts: { debits: number; refunds: number; credits: number };
  /** The slot's last event in log order (its place in the ledger, and the balance it records), if any. */
  last: { place: number; balanceAfter: string } | null;
  /** Events in the slot whose recorded balance is not the fold. */
  mismatches: number;
}

/**
 * Folds a wallet's ledger once into consecutive UTC days from `firstDayStart`, comparing each day with the
 * balance recorded by its latest event, so events written slightly out of time order (around midnight) give
 * the same figures whichever way the statement is asked for.
 */
export async function statementDays(
  ledger: AsyncIterable<WalletLedgerEntry>,
  currency: Currency,
  firstDayStart: number,
  dayCount: number,
): Promise<StatementDay[]> {
  const zero = Money.zero(currency);
  const periodEnd = firstDayStart + dayCount * DAY_MS;
  // Slot 0: everything before the period; slot d + 1: day d of the period.
  const slots: Slot[] = Array.from({ length: dayCount + 1 }, () => ({
    signed: zero,
    debits: zero,
    refunds: zero,
    credits: zero,
    counts: { debits: 0, refunds: 0, credits: 0 },
    last: null,
    mismatches: 0,
  }));
  let place = 0;
  for await (const entry of ledger) {
    place += 1;
    const at = Date.parse(entry.occurredAt);
    if (at >= periodEnd) continue;
    const slot = slots[at < firstDayStart ? 0 : Math.floor((at - firstDayStart) / DAY_MS) + 1];
    slot.signed = slot.signed.plus(entry.signedAmount);
    slot.last = { place, balanceAfter: entry.balanceAfter };
    if (entry.balanceAfter !== entry.runningBalance.toDecimal()) slot.mismatches += 1;
    if (entry.eventType === 'WalletDebited') {
      slot.debits = slot.debits.plus(entry.amount);
      slot.counts.debits += 1;
    } else if (entry.eventType === 'WalletRefunded') {
      slot.refunds = slot.refunds.plus(entry.amount);
      slot.counts.refunds += 1;
    } else {
      slot.credits = slot.credits.plus(entry.amount);
      slot.counts.credits += 1;
    }
  }

  const days: StatementDay[] = [];
  // Running over the slots before the day: the fold, the latest event in the log, the mismatches.
  let opening = slots[0].signed;
  let latestBefore = slots[0].last;
  let mismatchesBefore = slots[0].mismatches;
  for (let index = 0; index < dayCount; index += 1) {
    const day = slots[index + 1];
    const closing = opening.plus(day.signed);
    const latestByEnd = day.last && (!latestBefore || day.last.place > latestBefore.place) ? day.last : latestBefore;
    const recordedOpening = latestBefore?.balanceAfter ?? zero.toDecimal();
    const checks = {
      openingMatchesRecordedBalance: opening.toDecimal() === recordedOpening,
      closingMatchesRecordedBalance: closing.toDecimal() === (day.last?.balanceAfter ?? recordedOpening),
      everyBalanceAfterMatchesTheFold: mismatchesBefore + day.mismatches === 0,
    };
    days.push({
      date: new Date(firstDayStart + index * DAY_MS).toISOString().slice(0, 10),
      opening,
      debits: day.debits,
      refunds: day.refunds,
      credits: day.credits,
      closing,
      counts: day.counts,
      addsUp: Object.values(checks).every(Boolean),
      checks,
    });
    opening = closing;
    latestBefore = latestByEnd;
    mismatchesBefore += day.mismatches;
  }
  return days;
}
