import type { ClaimedLiveKey } from '../../../application/partners/claim-live-key';

/** The ClaimedLiveKey resource: the partner's first live key, shown this once. */
export interface ClaimedLiveKeyResource {
  partner_id: string;
  environment: 'live';
  key_id: string;
  api_key: string;
}

export const claimedLiveKeyResource = (claimed: ClaimedLiveKey): ClaimedLiveKeyResource => ({
  partner_id: claimed.partnerId,
  environment: 'live',
  key_id: claimed.keyId,
  api_key: claimed.apiKey,
});
