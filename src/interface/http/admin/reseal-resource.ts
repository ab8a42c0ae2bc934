import type { ResealReport } from '../../../application/settings/reseal-webhook-secrets';

export const resealResource = (report: ResealReport) => ({
  environments_resealed: report.environmentsResealed,
  secrets_resealed: report.secretsResealed,
  secrets_current: report.secretsCurrent,
  secrets_unreadable: report.secretsUnreadable.map((secret) => ({
    partner_id: secret.partnerId,
    environment: secret.environment,
    secret_id: secret.secretId,
  })),
});
