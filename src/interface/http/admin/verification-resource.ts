import type { VerificationReport } from '../../../application/audit/verify-money-invariants';

/** The report of `verify`: a breach answers 409 with the same body (admin.controller.ts). */
export const verificationResource = (report: VerificationReport) => ({
  ok: report.ok,
  checked: report.checked,
  breaches: report.breaches,
  key_spends: report.keySpends.map((spend) => ({
    partner_id: spend.partnerId,
    environment: spend.environment,
    key_id: spend.keyId,
    spent_last_24h: spend.spentLast24h.toDecimal(),
    daily_max: spend.dailyMax,
    currency: spend.spentLast24h.currency,
  })),
  in_progress: report.inProgress,
});
