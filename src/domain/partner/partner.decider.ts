import { Corridor } from '../corridor/corridor';
import { Decider, Decision, accept, refuse } from '../shared/decider';
import { DomainError, domainError } from '../shared/domain-error';
import { Environment } from '../shared/environment';
import { KycStatus, PartnerEvent } from './partner.events';
import { Money } from '../money/money';
import { currencyOf } from '../corridor/corridor';
import { KeyScope, MAX_ACTIVE_SCOPED_KEYS, MAX_KEY_LABEL_LENGTH } from './scoped-key';
import {
  MAX_RATE_LIMIT_PER_MINUTE,
  PartnerSettings,
  SECRET_ROTATION_OVERLAP_MS,
  SettingsChange,
  defaultSettings,
  lowBalanceThresholdProblem,
  rateLimitCeiling,
  webhookUrlProblem,
} from './partner-settings';

export interface IssuedKey {
  keyId: string;
  keyHash: string;
}

export interface PartnerState {
  partnerId: string | null;
  name: string | null;
  corridor: Corridor | null;
  kycStatus: KycStatus;
  activeKeys: Partial<Record<Environment, string>>;
  /** Restricted keys by key id, with their environment, label and whether they still work (expiry aside). */
  scopedKeys: Record<string, { environment: Environment; label: string; active: boolean }>;
  settings: Record<Environment, PartnerSettings>;
}

export type PartnerCommand =
  | { type: 'OnboardPartner'; partnerId: string; name: string; corridor: Corridor; sandboxKey: IssuedKey; at: string }
  | {
      type: 'ChangeKycStatus';
      status: 'approved' | 'suspended';
      /** Issued on the first approval; null: the partner claims its first live key itself (ClaimLiveKey). */
      candidateLiveKey: IssuedKey | null;
      at: string;
    }
  | { type: 'ClaimLiveKey'; key: IssuedKey; /** The sandbox main key that asked. */ mainKeyUsed: string; at: string }
  | {
      type: 'RegenerateKey';
      environment: Environment;
      key: IssuedKey;
      /**
       * False (the default of every caller): the environment's restricted keys are revoked with the
       * main key, since whoever held the old main key may have made some. True keeps them.
       */
      keepRestrictedKeys: boolean;
      at: string;
    }
  | {
      type: 'CreateScopedKey';
      environment: Environment;
      key: IssuedKey;
      label: string;
      scope: KeyScope;
      /** In the wallet currency of the partner's corridor; null: no such cap (always null for read_only). */
      perOrderMax: Money | null;
      dailyMax: Money | null;
      /** Requests per minute of its own, at most the environment's; null: only the environment's limit. */
      rateLimitPerMinute: number | null;
      expiresAt: string | null;
      /** The partner's main key that made the request; null: an operator. */
      mainKeyUsed: string | null;
      at: string;
    }
  | { type: 'RevokeScopedKey'; keyId: string; reason: string; at: string }
  /** A key in use found under an older server secret: its hash under the newest. */
  | { type: 'RehashKey'; keyId: string; environment: Environment; keyHash: string; at: string }
  /** The environment's webhook secrets sealed again under the newest server secret, by secret id. */
  | {
      type: 'ResealWebhookSecrets';
      environment: Environment;
      secrets: { secretId: string; sealedSecret: string }[];
      at: string;
    }
  | {
      type: 'ConfigurePartner';
      environment: Environment;
      changes: SettingsChange;
      /** Rotate (or create) the webhook secret with this sealed candidate. */
      newSecret: { secretId: string; sealed: string } | null;
      /** The partner's main key that made the request; null: an operator. */
      mainKeyUsed: string | null;
      at: string;
    };

function decide(command: PartnerCommand, state: PartnerState): Decision<PartnerEvent> {
  if (command.type === 'OnboardPartner') {
    if (state.partnerId) return refuse(domainError('invalid_state', `partner ${state.partnerId} already exists`));
    const { partnerId, at } = command;
    return accept(
      {
        type: 'PartnerOnboarded',
        data: { partnerId, name: command.name, corridor: command.corridor, onboardedAt: at },
      },
      { type: 'ApiKeyIssued', data: { partnerId, environment: 'sandbox', ...command.sandboxKey, issuedAt: at } },
    );
  }
  const partnerId = state.partnerId;
  if (!partnerId) return refuse(domainError('not_found', 'partner not found'));

  switch (command.type) {
    case 'ChangeKycStatus': {
      if (state.kycStatus === command.status) return accept();
      const changed: PartnerEvent = {
        type: 'KycStatusChanged',
        data: { partnerId, status: command.status, changedAt: command.at },
      };
      const firstApproval = command.status === 'approved' && !state.activeKeys.live;
      if (!firstApproval || !command.candidateLiveKey) return accept(changed);
      return accept<PartnerEvent>(changed, {
        type: 'ApiKeyIssued',
        data: { partnerId, environment: 'live', ...command.candidateLiveKey, issuedAt: command.at },
      });
    }
    case 'ClaimLiveKey': {
      const revoked = mainKeyRevoked(state, 'sandbox', command.mainKeyUsed);
      if (revoked) return refuse(revoked);
      if (state.kycStatus !== 'approved')
        return refuse(domainError('invalid_state', 'the live key can be claimed once KYC is approved'));
      if (state.activeKeys.live)
        return refuse(
          domainError('invalid_state', 'the live key was already issued; it is shown once and never again'),
        );
      return accept({
        type: 'ApiKeyIssued',
        data: { partnerId, environment: 'live', ...command.key, issuedAt: command.at },
      });
    }
    case 'RegenerateKey': {
      const { environment } = command;
      const current = state.activeKeys[environment];
      if (!current) {
        return refuse(
          domainError('invalid_state', `no ${environment} key has been issued; live keys are issued on KYC approval`),
        );
      }
      const restricted: PartnerEvent[] = command.keepRestrictedKeys
        ? []
        : activeScopedKeys(state, environment).map((keyId) => ({
            type: 'ScopedKeyRevoked',
            data: { partnerId, keyId, environment, reason: MAIN_KEY_REGENERATED, revokedAt: command.at },
          }));
      return accept<PartnerEvent>(
        {
          type: 'ApiKeyRevoked',
          data: { partnerId, keyId: current, environment, reason: 'regenerated', revokedAt: command.at },
        },
        ...restricted,
        { type: 'ApiKeyIssued', data: { partnerId, environment, ...command.key, issuedAt: command.at } },
      );
    }
    case 'RehashKey': {
      const { keyId, environment, keyHash, at } = command;
      const active = state.activeKeys[environment] === keyId || (state.scopedKeys[keyId]?.active ?? false);
      // A key revoked meanwhile keeps the hash it had: it works under no secret anyway.
      if (!active) return accept();
      return accept({ type: 'ApiKeyRehashed', data: { partnerId, keyId, environment, keyHash, rehashedAt: at } });
    }
    case 'ResealWebhookSecrets': {
      const held = new Set(state.settings[command.environment].webhookSecrets.map((secret) => secret.secretId));
      const secrets = command.secrets.filter((secret) => held.has(secret.secretId));
      if (secrets.length === 0) return accept();
      return accept({
        type: 'WebhookSecretsResealed',
        data: { partnerId, environment: command.environment, secrets, resealedAt: command.at },
      });
    }
    case 'CreateScopedKey': {
      const revoked = mainKeyRevoked(state, command.environment, command.mainKeyUsed);
      return revoked ? refuse(revoked) : createScopedKey(partnerId, command, state);
    }
    case 'RevokeScopedKey': {
      const key = state.scopedKeys[command.keyId];
      if (!key) return refuse(domainError('not_found', `no restricted key ${command.keyId}`));
      if (!key.active) return accept();
      return accept({
        type: 'ScopedKeyRevoked',
        data: {
          partnerId,
          keyId: command.keyId,
          environment: key.environment,
          reason: command.reason,
          revokedAt: command.at,
        },
      });
    }
    case 'ConfigurePartner': {
      const revoked = mainKeyRevoked(state, command.environment, command.mainKeyUsed);
      if (revoked) return refuse(revoked);
      const ceilingProblem = rateLimitAboveCeiling(command, state.settings[command.environment]);
      if (ceilingProblem) return refuse(ceilingProblem);
      return configure(partnerId, command, state.settings[command.environment], state.corridor);
    }
  }
}

/**
 * A partner's change is decided only while the main key that asked for it is still the environment's main key:
 * a request admitted just before a regeneration, and decided after it, must not create a key the regeneration
 * never revoked, nor change the webhook or allowlist, nor take a new webhook secret.
 */
function mainKeyRevoked(state: PartnerState, environment: Environment, mainKeyUsed: string | null): DomainError | null {
  if (mainKeyUsed === null || state.activeKeys[environment] === mainKeyUsed) return null;
  return domainError(
    'invalid_api_key',
    `the ${environment} API key that made this request was revoked while it was handled; nothing was changed`,
  );
}

/**
 * A partner sets its own limit only up to the ceiling the back office set (or the environment's
 * default ceiling); only the back office (no main key) moves the ceiling.
 */
function rateLimitAboveCeiling(
  command: Extract<PartnerCommand, { type: 'ConfigurePartner' }>,
  current: PartnerSettings,
): DomainError | null {
  const { changes, environment, mainKeyUsed } = command;
  if (mainKeyUsed === null) return null;
  if (changes.rateLimitCeilingPerMinute !== undefined)
    return domainError('validation_failed', 'rate_limit_ceiling: set by the back office only');
  const ceiling = rateLimitCeiling(current, environment);
  if (changes.rateLimitPerMinute === undefined || changes.rateLimitPerMinute <= ceiling) return null;
  return domainError(
    'validation_failed',
    `rate_limit_per_minute: at most ${ceiling}, the ceiling of your ${environment} keys; ask us to raise it`,
  );
}

/** Why restricted keys are revoked with a regenerated main key (ScopedKeyRevoked.reason). */
export const MAIN_KEY_REGENERATED = 'main_key_regenerated';

/** The restricted keys of an environment that still work (expiry aside), oldest first. */
export function activeScopedKeys(state: PartnerState, environment: Environment): string[] {
  return Object.entries(state.scopedKeys)
    .filter(([, key]) => key.active && key.environment === environment)
    .map(([keyId]) => keyId);
}

function createScopedKey(
  partnerId: string,
  command: Extract<PartnerCommand, { type: 'CreateScopedKey' }>,
  state: PartnerState,
): Decision<PartnerEvent> {
  const { environment, label, scope, perOrderMax, dailyMax, rateLimitPerMinute, expiresAt, at } = command;
  if (!state.activeKeys[environment]) {
    const detail = `no ${environment} key has been issued; live keys are issued on KYC approval`;
    return refuse(domainError('invalid_state', detail));
  }
  if (activeScopedKeys(state, environment).length >= MAX_ACTIVE_SCOPED_KEYS) {
    const detail = `at most ${MAX_ACTIVE_SCOPED_KEYS} active restricted keys per environment; revoke one first`;
    return refuse(domainError('invalid_state', detail));
  }
  if (label.trim().length === 0 || label.length > MAX_KEY_LABEL_LENGTH) {
    return refuse(domainError('validation_failed', `label: from 1 to ${MAX_KEY_LABEL_LENGTH} characters`));
  }
  if (scope === 'read_only' && (perOrderMax || dailyMax)) {
    const detail = 'per_order_max: caps apply to transact keys only; a read_only key moves no money';
    return refuse(domainError('validation_failed', detail));
  }
  if (!state.corridor) return refuse(domainError('invalid_state', 'the partner has no corridor'));
  const currency = currencyOf(state.corridor);
  for (const [name, cap] of [
    ['per_order_max', perOrderMax],
    ['daily_max', dailyMax],
  ] as const) {
    if (cap && (cap.currency !== currency || !cap.isPositive())) {
      return refuse(domainError('validation_failed', `${name}: a positive amount in ${currency}`));
    }
  }
  if (perOrderMax && dailyMax && dailyMax.isLessThan(perOrderMax)) {
    return refuse(domainError('validation_failed', 'per_order_max: must not exceed daily_max'));
  }
  if (expiresAt !== null && new Date(expiresAt).getTime() <= new Date(at).getTime()) {
    return refuse(domainError('validation_failed', 'expires_at: must be in the future'));
  }
  const environmentLimit = state.settings[environment].rateLimitPerMinute;
  if (
    rateLimitPerMinute !== null &&
    (!Number.isInteger(rateLimitPerMinute) || rateLimitPerMinute < 1 || rateLimitPerMinute > environmentLimit)
  ) {
    const detail = `rate_limit: an integer from 1 to ${environmentLimit}, this environment's limit per minute; a restricted key may have a lower limit, never a higher one`;
    return refuse(domainError('validation_failed', detail));
  }
  return accept({
    type: 'ScopedKeyCreated',
    data: {
      partnerId,
      keyId: command.key.keyId,
      environment,
      keyHash: command.key.keyHash,
      label,
      scope,
      perOrderMax: perOrderMax ? perOrderMax.toDecimal() : null,
      dailyMax: dailyMax ? dailyMax.toDecimal() : null,
      currency,
      ...(rateLimitPerMinute !== null ? { rateLimitPerMinute } : {}),
      expiresAt,
      createdAt: at,
    },
  });
}

function configure(
  partnerId: string,
  command: Extract<PartnerCommand, { type: 'ConfigurePartner' }>,
  current: PartnerSettings,
  corridor: Corridor | null,
): Decision<PartnerEvent> {
  const { environment, changes, at } = command;
  if (changes.webhookUrl) {
    const problem = webhookUrlProblem(changes.webhookUrl, environment);
    if (problem) return refuse(domainError('validation_failed', problem));
  }
  for (const value of [changes.rateLimitPerMinute, changes.rateLimitCeilingPerMinute]) {
    if (value !== undefined && (!Number.isInteger(value) || value < 1 || value > MAX_RATE_LIMIT_PER_MINUTE)) {
      const detail = `rate_limit: an integer from 1 to ${MAX_RATE_LIMIT_PER_MINUTE} requests per minute`;
      return refuse(domainError('validation_failed', detail));
    }
  }
  let threshold = changes.lowBalanceThreshold;
  if (threshold !== undefined && threshold !== null) {
    const currency = corridor ? currencyOf(corridor) : null;
    if (!currency) return refuse(domainError('invalid_state', 'the partner has no corridor'));
    const problem = lowBalanceThresholdProblem(threshold, currency);
    if (problem) return refuse(domainError('validation_failed', problem));
    // Kept in the currency's own digits ("500" -> "500.00"), as balances are written.
    threshold = Money.parse(threshold, currency)?.toDecimal() ?? threshold;
  }
  const effective: SettingsChange = {};
  if (changes.webhookUrl !== undefined && changes.webhookUrl !== current.webhookUrl)
    effective.webhookUrl = changes.webhookUrl;
  if (changes.ipAllowlist !== undefined && changes.ipAllowlist.join(',') !== current.ipAllowlist.join(','))
    effective.ipAllowlist = changes.ipAllowlist;
  if (changes.rateLimitPerMinute !== undefined && changes.rateLimitPerMinute !== current.rateLimitPerMinute)
    effective.rateLimitPerMinute = changes.rateLimitPerMinute;
  if (
    changes.rateLimitCeilingPerMinute !== undefined &&
    changes.rateLimitCeilingPerMinute !== current.rateLimitCeilingPerMinute
  )
    effective.rateLimitCeilingPerMinute = changes.rateLimitCeilingPerMinute;
  if (threshold !== undefined && threshold !== (current.lowBalanceThreshold ?? null))
    effective.lowBalanceThreshold = threshold;
  const events: PartnerEvent[] = [];
  if (Object.keys(effective).length > 0) {
    events.push({
      type: 'PartnerSettingsChanged',
      data: { partnerId, environment, changes: effective, changedAt: at },
    });
  }
  if (command.newSecret) {
    const hasSecret = current.webhookSecrets.length > 0;
    events.push({
      type: 'WebhookSecretRotated',
      data: {
        partnerId,
        environment,
        secretId: command.newSecret.secretId,
        sealedSecret: command.newSecret.sealed,
        previousValidUntil: hasSecret
          ? new Date(new Date(at).getTime() + SECRET_ROTATION_OVERLAP_MS).toISOString()
          : null,
        rotatedAt: at,
      },
    });
  }
  return accept(...events);
}

function evolve(state: PartnerState, event: PartnerEvent): PartnerState {
  switch (event.type) {
    case 'PartnerOnboarded':
      return { ...state, partnerId: event.data.partnerId, name: event.data.name, corridor: event.data.corridor };
    case 'ApiKeyIssued':
      return { ...state, activeKeys: { ...state.activeKeys, [event.data.environment]: event.data.keyId } };
    case 'ApiKeyRevoked': {
      const activeKeys = { ...state.activeKeys };
      if (activeKeys[event.data.environment] === event.data.keyId) delete activeKeys[event.data.environment];
      return { ...state, activeKeys };
    }
    case 'ScopedKeyCreated': {
      const created = { environment: event.data.environment, label: event.data.label, active: true };
      return { ...state, scopedKeys: { ...state.scopedKeys, [event.data.keyId]: created } };
    }
    case 'ScopedKeyRevoked': {
      const key = state.scopedKeys[event.data.keyId];
      if (!key) return state;
      return { ...state, scopedKeys: { ...state.scopedKeys, [event.data.keyId]: { ...key, active: false } } };
    }
    case 'KycStatusChanged':
      return { ...state, kycStatus: event.data.status };
    case 'PartnerSettingsChanged': {
      const { environment, changes } = event.data;
      return {
        ...state,
        settings: { ...state.settings, [environment]: applySettingsChange(state.settings[environment], changes) },
      };
    }
    case 'WebhookSecretRotated': {
      const { environment } = event.data;
      return {
        ...state,
        settings: { ...state.settings, [environment]: rotateSecret(state.settings[environment], event.data) },
      };
    }
    case 'WebhookSecretsResealed': {
      const { environment } = event.data;
      return {
        ...state,
        settings: { ...state.settings, [environment]: resealSecrets(state.settings[environment], event.data) },
      };
    }
    case 'ApiKeyRehashed':
      return state;
  }
}

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

export const partnerDecider: Decider<PartnerState, PartnerCommand, PartnerEvent> = {
  initialState: {
    partnerId: null,
    name: null,
    corridor: null,
    kycStatus: 'pending',
    activeKeys: {},
    scopedKeys: {},
    settings: { live: defaultSettings(), sandbox: defaultSettings() },
  },
  decide,
  evolve,
};
