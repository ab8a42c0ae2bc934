import { Currency } from '../../domain/money/currency';
import { Money } from '../../domain/money/money';
import { DAY_MS } from './wallet-ledger';
import type { WalletLedgerEntry } from './wallet-ledger';

/** One UTC day of a wallet: the balance it opened and closed with, what moved, and whether it adds up. */
export interface StatementDay {
  /** YYYY-MM-DD. */
  date: string;
  opening: Money;
  debits: Money;
  refunds: Money;
  credits: Money;
  closing: Money;
  counts: { debits: number; refunds: number; credits: number };
  checks: {
    opening_matches_recorded_balance: boolean;
    closing_matches_recorded_balance: boolean;
    every_balance_after_matches_the_fold: boolean;
  };
}

/**
 * Folds a wallet's ledger once into consecutive UTC days starting at `firstDayStart`. Each
 * balance is the fold of the events and is compared with the balance the last event before it
 * records, so a ledger whose events disagree with their own sums is caught.
 */
export async function statementDays(
  ledger: AsyncIterable<WalletLedgerEntry>,
  currency: Currency,
  firstDayStart: number,
  dayCount: number,
): Promise<StatementDay[]> {
  const zero = Money.zero(currency);
  const periodEnd = firstDayStart + dayCount * DAY_MS;
  const moved = Array.from({ length: dayCount }, () => ({
    debits: zero,
    refunds: zero,
    credits: zero,
    counts: { debits: 0, refunds: 0, credits: 0 },
    /** The balance the day's last event records; null when nothing happened that day. */
    closingRecorded: null as string | null,
    /** Events so far (this day included) whose recorded balance is not the fold. */
    mismatchesSoFar: 0,
  }));
  let openingOfPeriod = zero;
  let recordedBeforePeriod = zero.toDecimal();
  let mismatches = 0;
  let mismatchesBeforePeriod = 0;
  for await (const entry of ledger) {
    const at = Date.parse(entry.occurredAt);
    if (at >= periodEnd) continue;
    if (entry.balanceAfter !== entry.runningBalance.toDecimal()) mismatches += 1;
    if (at < firstDayStart) {
      openingOfPeriod = openingOfPeriod.plus(entry.signedAmount);
      recordedBeforePeriod = entry.balanceAfter;
      mismatchesBeforePeriod = mismatches;
      continue;
    }
    const day = moved[Math.floor((at - firstDayStart) / DAY_MS)];
    day.closingRecorded = entry.balanceAfter;
    if (entry.eventType === 'WalletDebited') {
      day.debits = day.debits.plus(entry.amount);
      day.counts.debits += 1;
    } else if (entry.eventType === 'WalletRefunded') {
      day.refunds = day.refunds.plus(entry.amount);
      day.counts.refunds += 1;
    } else {
      day.credits = day.credits.plus(entry.amount);
      day.counts.credits += 1;
    }
    day.mismatchesSoFar = mismatches;
  }

  const days: StatementDay[] = [];
  let opening = openingOfPeriod;
  let recordedOpening = recordedBeforePeriod;
  let mismatchesBefore = mismatchesBeforePeriod;
  moved.forEach((day, index) => {
    const closing = opening.minus(day.debits).plus(day.refunds).plus(day.credits);
    const recordedClosing = day.closingRecorded ?? recordedOpening;
    const mismatchesSoFar = day.closingRecorded === null ? mismatchesBefore : day.mismatchesSoFar;
    days.push({
      date: new Date(firstDayStart + index * DAY_MS).toISOString().slice(0, 10),
      opening,
      debits: day.debits,
      refunds: day.refunds,
      credits: day.credits,
      closing,
      counts: day.counts,
      checks: {
        opening_matches_recorded_balance: opening.toDecimal() === recordedOpening,
        closing_matches_recorded_balance: closing.toDecimal() === recordedClosing,
        every_balance_after_matches_the_fold: mismatchesSoFar === 0,
      },
    });
    opening = closing;
    recordedOpening = recordedClosing;
    mismatchesBefore = mismatchesSoFar;
  });
  return days;
}
