import type { Breach, VerificationReport } from '../../../application/audit/verify-money-invariants';
import { Currency } from '../../../domain/money/currency';
import { Environment } from '../../../domain/shared/environment';

export interface KeySpendResource {
  partner_id: string;
  environment: Environment;
  key_id: string;
  spent_last_24h: string;
  daily_max: string | null;
  currency: Currency;
}

/** The report of `verify`: a breach answers 409 with the same body (admin.controller.ts). */
export interface VerificationResource {
  ok: boolean;
  checked: VerificationReport['checked'];
  breaches: Breach[];
  key_spends: KeySpendResource[];
  in_progress: string[];
}

export const verificationResource = (report: VerificationReport): VerificationResource => ({
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
