import { Decider, Decision, accept, refuse } from '../shared/decider';
import { DomainError, domainError } from '../shared/domain-error';
import { Environment } from '../shared/environment';
import { PartnerEvent } from './partner.events';
import { defaultSettings } from './partner-settings';
import { applySettingsChange, resealSecrets, rotateSecret } from './partner-settings.fold';
import { PartnerCommand, PartnerState } from './partner.commands';
import { MAIN_KEY_REGENERATED, activeScopedKeys, createScopedKey } from './scoped-key-creation';
import { configure, rateLimitAboveCeiling } from './partner-configuration';

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
 * Decided only while the asking main key is still the environment's: a request admitted before a
 * regeneration and decided after it must change nothing the regeneration did not revoke (decision 0083).
 */
function mainKeyRevoked(state: PartnerState, environment: Environment, mainKeyUsed: string | null): DomainError | null {
  if (mainKeyUsed === null || state.activeKeys[environment] === mainKeyUsed) return null;
  return domainError(
    'invalid_api_key',
    `the ${environment} API key that made this request was revoked while it was handled; nothing was changed`,
  );
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
