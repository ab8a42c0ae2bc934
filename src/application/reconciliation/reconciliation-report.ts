import { Finding, FindingKind } from '../../domain/reconciliation/reconciliation';

export interface ReconciliationReport {
  provider: string;
  date: string;
  /** False while the day (UTC) is not over: its figures may still change, and nothing is recorded. */
  complete: boolean;
  generated_at: string;
  counts: Record<FindingKind, number>;
  /** Mismatch events recorded by this run (those found by an earlier run are not recorded again); 0 for a read (GET). */
  recorded: number;
  findings: {
    kind: FindingKind;
    order_id: string;
    partner_id: string | null;
    detail: string;
    upstream: { transaction_id: string; status: string; amount: string; currency: string; at: string } | null;
    ours: { status: string; amount: string; currency: string; placed_at: string; operator_ref: string | null } | null;
  }[];
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

export function reportOf(input: {
  provider: string;
  date: string;
  complete: boolean;
  generatedAt: string;
  findings: readonly Finding[];
  recorded: number;
}): ReconciliationReport {
  const counts = countsOf(input.findings);
  return {
    provider: input.provider,
    date: input.date,
    complete: input.complete,
    generated_at: input.generatedAt,
    counts,
    recorded: input.recorded,
    findings: input.findings.map((finding) => ({
      kind: finding.kind,
      order_id: finding.orderId,
      partner_id: finding.partnerId,
      detail: finding.detail,
      upstream: finding.upstream
        ? {
            transaction_id: finding.upstream.transactionId,
            status: finding.upstream.status,
            amount: finding.upstream.amount,
            currency: finding.upstream.currency,
            at: finding.upstream.at,
          }
        : null,
      ours: finding.ours
        ? {
            status: finding.ours.status,
            amount: finding.ours.amount,
            currency: finding.ours.currency,
            placed_at: finding.ours.placedAt,
            operator_ref: finding.ours.operatorRef,
          }
        : null,
    })),
  };
}
