import { Corridor } from '../corridor/corridor';
import { Decider, Decision, accept, refuse } from '../shared/decider';
import { domainError } from '../shared/domain-error';
import { Environment } from '../shared/environment';
import { KycStatus, PartnerEvent } from './partner.events';
import { PartnerSettings, SECRET_ROTATION_OVERLAP_MS, SettingsChange, defaultSettings, webhookUrlProblem } from './partner-settings';

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
  settings: Record<Environment, PartnerSettings>;
}

export type PartnerCommand =
  | { type: 'OnboardPartner'; partnerId: string; name: string; corridor: Corridor; sandboxKey: IssuedKey; at: string }
  | { type: 'ChangeKycStatus'; status: 'approved' | 'suspended'; candidateLiveKey: IssuedKey; at: string }
  | { type: 'RegenerateKey'; environment: Environment; key: IssuedKey; at: string }
  | {
      type: 'ConfigurePartner';
      environment: Environment;
      changes: SettingsChange;
      /** Rotate (or create) the webhook secret with this sealed candidate. */
      newSecret: { secretId: string; sealed: string } | null;
      at: string;
    };

function decide(command: PartnerCommand, state: PartnerState): Decision<PartnerEvent> {
  if (command.type === 'OnboardPartner') {
    if (state.partnerId) return refuse(domainError('invalid_state', `partner ${state.partnerId} already exists`));
    const { partnerId, at } = command;
    return accept(
      { type: 'PartnerOnboarded', data: { partnerId, name: command.name, corridor: command.corridor, onboardedAt: at } },
      { type: 'ApiKeyIssued', data: { partnerId, environment: 'sandbox', ...command.sandboxKey, issuedAt: at } },
    );
  }
  const partnerId = state.partnerId;
  if (!partnerId) return refuse(domainError('not_found', 'partner not found'));

  switch (command.type) {
    case 'ChangeKycStatus': {
      if (state.kycStatus === command.status) return accept();
      const changed: PartnerEvent = { type: 'KycStatusChanged', data: { partnerId, status: command.status, changedAt: command.at } };
      const firstApproval = command.status === 'approved' && !state.activeKeys.live;
      if (!firstApproval) return accept(changed);
      return accept<PartnerEvent>(changed, {
        type: 'ApiKeyIssued',
        data: { partnerId, environment: 'live', ...command.candidateLiveKey, issuedAt: command.at },
      });
    }
    case 'RegenerateKey': {
      const { environment } = command;
      const current = state.activeKeys[environment];
      if (!current) {
        return refuse(domainError('invalid_state', `no ${environment} key has been issued; live keys are issued on KYC approval`));
      }
      return accept(
        { type: 'ApiKeyRevoked', data: { partnerId, keyId: current, environment, reason: 'regenerated', revokedAt: command.at } },
        { type: 'ApiKeyIssued', data: { partnerId, environment, ...command.key, issuedAt: command.at } },
      );
    }
    case 'ConfigurePartner':
      return configure(partnerId, command, state.settings[command.environment]);
  }
}

function configure(partnerId: string, command: Extract<PartnerCommand, { type: 'ConfigurePartner' }>, current: PartnerSettings): Decision<PartnerEvent> {
  const { environment, changes, at } = command;
  if (changes.webhookUrl) {
    const problem = webhookUrlProblem(changes.webhookUrl, environment);
    if (problem) return refuse(domainError('validation_failed', problem));
  }
  if (changes.rateLimitPerMinute !== undefined && (!Number.isInteger(changes.rateLimitPerMinute) || changes.rateLimitPerMinute < 1 || changes.rateLimitPerMinute > 100_000)) {
    return refuse(domainError('validation_failed', 'rate_limit: an integer from 1 to 100000 requests per minute'));
  }
  const effective: SettingsChange = {};
  if (changes.webhookUrl !== undefined && changes.webhookUrl !== current.webhookUrl) effective.webhookUrl = changes.webhookUrl;
  if (changes.ipAllowlist !== undefined && changes.ipAllowlist.join(',') !== current.ipAllowlist.join(',')) effective.ipAllowlist = changes.ipAllowlist;
  if (changes.rateLimitPerMinute !== undefined && changes.rateLimitPerMinute !== current.rateLimitPerMinute) effective.rateLimitPerMinute = changes.rateLimitPerMinute;
  const events: PartnerEvent[] = [];
  if (Object.keys(effective).length > 0) {
    events.push({ type: 'PartnerSettingsChanged', data: { partnerId, environment, changes: effective, changedAt: at } });
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
        previousValidUntil: hasSecret ? new Date(new Date(at).getTime() + SECRET_ROTATION_OVERLAP_MS).toISOString() : null,
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
    case 'KycStatusChanged':
      return { ...state, kycStatus: event.data.status };
    case 'PartnerSettingsChanged': {
      const { environment, changes } = event.data;
      return { ...state, settings: { ...state.settings, [environment]: applySettingsChange(state.settings[environment], changes) } };
    }
    case 'WebhookSecretRotated': {
      const { environment } = event.data;
      return { ...state, settings: { ...state.settings, [environment]: rotateSecret(state.settings[environment], event.data) } };
    }
  }
}

export function applySettingsChange(settings: PartnerSettings, changes: SettingsChange): PartnerSettings {
  return {
    ...settings,
    ...(changes.webhookUrl !== undefined ? { webhookUrl: changes.webhookUrl } : {}),
    ...(changes.ipAllowlist !== undefined ? { ipAllowlist: changes.ipAllowlist } : {}),
    ...(changes.rateLimitPerMinute !== undefined ? { rateLimitPerMinute: changes.rateLimitPerMinute } : {}),
  };
}

/** The new secret goes first; only the one before it survives, until the overlap ends. */
export function rotateSecret(settings: PartnerSettings, rotation: { secretId: string; sealedSecret: string; previousValidUntil: string | null }): PartnerSettings {
  const previous = settings.webhookSecrets[0];
  const kept = previous && rotation.previousValidUntil ? [{ ...previous, validUntil: rotation.previousValidUntil }] : [];
  return { ...settings, webhookSecrets: [{ secretId: rotation.secretId, sealed: rotation.sealedSecret, validUntil: null }, ...kept] };
}

export const partnerDecider: Decider<PartnerState, PartnerCommand, PartnerEvent> = {
  initialState: {
    partnerId: null,
    name: null,
    corridor: null,
    kycStatus: 'pending',
    activeKeys: {},
    settings: { live: defaultSettings(), sandbox: defaultSettings() },
  },
  decide,
  evolve,
};
