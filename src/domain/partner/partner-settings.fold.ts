import { PartnerSettings, SettingsChange } from './partner-settings';

/** Each secret named gets its new seal; validity and order stay. */
export function resealSecrets(
  settings: PartnerSettings,
  resealed: { secrets: readonly { secretId: string; sealedSecret: string }[] },
): PartnerSettings {
  const seals = new Map(resealed.secrets.map((secret) => [secret.secretId, secret.sealedSecret]));
  return {
    ...settings,
    webhookSecrets: settings.webhookSecrets.map((secret) => ({
      ...secret,
      sealed: seals.get(secret.secretId) ?? secret.sealed,
    })),
  };
}

export function applySettingsChange(settings: PartnerSettings, changes: SettingsChange): PartnerSettings {
  return {
    ...settings,
    ...(changes.webhookUrl !== undefined ? { webhookUrl: changes.webhookUrl } : {}),
    ...(changes.ipAllowlist !== undefined ? { ipAllowlist: changes.ipAllowlist } : {}),
    ...(changes.rateLimitPerMinute !== undefined ? { rateLimitPerMinute: changes.rateLimitPerMinute } : {}),
    ...(changes.rateLimitCeilingPerMinute !== undefined
      ? { rateLimitCeilingPerMinute: changes.rateLimitCeilingPerMinute }
      : {}),
    ...(changes.lowBalanceThreshold !== undefined ? { lowBalanceThreshold: changes.lowBalanceThreshold } : {}),
  };
}

/** The new secret goes first; only the one before it survives, until the overlap ends. */
export function rotateSecret(
  settings: PartnerSettings,
  rotation: { secretId: string; sealedSecret: string; previousValidUntil: string | null },
): PartnerSettings {
  const previous = settings.webhookSecrets[0];
  const kept =
    previous && rotation.previousValidUntil ? [{ ...previous, validUntil: rotation.previousValidUntil }] : [];
  return {
    ...settings,
    webhookSecrets: [{ secretId: rotation.secretId, sealed: rotation.sealedSecret, validUntil: null }, ...kept],
  };
}
