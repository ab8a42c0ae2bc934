import { Corridor } from '../corridor/corridor';
import { Environment } from '../shared/environment';

export type KycStatus = 'pending' | 'approved' | 'suspended';

export type PartnerOnboarded = {
  type: 'PartnerOnboarded';
  data: { partnerId: string; name: string; corridor: Corridor; onboardedAt: string };
};

/** Only the keyed hash of a key is ever recorded; the key itself is shown once and forgotten. */
export type ApiKeyIssued = {
  type: 'ApiKeyIssued';
  data: { partnerId: string; keyId: string; environment: Environment; keyHash: string; issuedAt: string };
};

export type ApiKeyRevoked = {
  type: 'ApiKeyRevoked';
  data: { partnerId: string; keyId: string; environment: Environment; reason: string; revokedAt: string };
};

export type KycStatusChanged = {
  type: 'KycStatusChanged';
  data: { partnerId: string; status: Exclude<KycStatus, 'pending'>; changedAt: string };
};

export type PartnerEvent = PartnerOnboarded | ApiKeyIssued | ApiKeyRevoked | KycStatusChanged;

export const partnerStreamId = (partnerId: string): string => `partner-${partnerId}`;
