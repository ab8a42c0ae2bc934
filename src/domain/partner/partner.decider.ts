import { Corridor } from '../corridor/corridor';
import { Decider, Decision, accept, refuse } from '../shared/decider';
import { domainError } from '../shared/domain-error';
import { Environment } from '../shared/environment';
import { KycStatus, PartnerEvent } from './partner.events';

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
}

export type PartnerCommand =
  | { type: 'OnboardPartner'; partnerId: string; name: string; corridor: Corridor; sandboxKey: IssuedKey; at: string }
  | { type: 'ChangeKycStatus'; status: 'approved' | 'suspended'; candidateLiveKey: IssuedKey; at: string }
  | { type: 'RegenerateKey'; environment: Environment; key: IssuedKey; at: string };

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
  }
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
  }
}

export const partnerDecider: Decider<PartnerState, PartnerCommand, PartnerEvent> = {
  initialState: { partnerId: null, name: null, corridor: null, kycStatus: 'pending', activeKeys: {} },
  decide,
  evolve,
};
