import { Finding, FindingKind } from '../../domain/reconciliation/reconciliation';

/** An operator's reconciliation of one provider's day: its findings, counted by kind. */
export interface ReconciliationReport {
  provider: string;
  date: string;
  /** False while the day (UTC) is not over: its figures may still change, and nothing is recorded. */
  complete: boolean;
  generatedAt: string;
  counts: Record<FindingKind, number>;
  /** Mismatch events recorded by this run (those found by an earlier run are not recorded again). */
  recorded: number;
  findings: readonly Finding[];
}

/** The findings counted by kind, every kind present. */
export function countsOf(findings: readonly Finding[]): Record<FindingKind, number> {
  const counts: Record<FindingKind, number> = {
    matched: 0,
    amount_mismatch: 0,
    provider_only: 0,
    ours_only: 0,
    status_mismatch: 0,
  };
  for (const finding of findings) counts[finding.kind]++;
  return counts;
}
