import type { ResealReport } from '../../../application/settings/reseal-webhook-secrets';
import { Environment } from '../../../domain/shared/environment';

export interface ResealResource {
  environments_resealed: number;
  secrets_resealed: number;
  secrets_current: number;
  secrets_unreadable: { partner_id: string; environment: Environment; secret_id: string }[];
}

export const resealResource = (report: ResealReport): ResealResource => ({
  environments_resealed: report.environmentsResealed,
  secrets_resealed: report.secretsResealed,
  secrets_current: report.secretsCurrent,
  secrets_unreadable: report.secretsUnreadable.map((secret) => ({
    partner_id: secret.partnerId,
    environment: secret.environment,
    secret_id: secret.secretId,
  })),
});
