import type { KycChangeResult } from '../../../application/partners/change-kyc-status';
import type { WalletCredit } from '../../../application/partners/credit-wallet';
import type { OnboardedPartner } from '../../../application/partners/onboard-partner';
import type { RegeneratedKey, RestrictedKeyNamed } from '../../../application/partners/regenerate-api-key';
import { Currency } from '../../../domain/money/currency';
import { Environment } from '../../../domain/shared/environment';

export interface OnboardedPartnerResource {
  partner_id: string;
  sandbox_api_key: string | null;
}

export interface RestrictedKeyNamedResource {
  key_id: string;
  label: string;
}

export interface RegeneratedKeyResource {
  partner_id: string;
  environment: Environment;
  api_key: string;
  revoked_restricted_keys: RestrictedKeyNamedResource[];
  kept_restricted_keys: RestrictedKeyNamedResource[];
}

/** A credit as the back office sees it: what was credited, and the balance after it. */
export interface WalletCreditResource {
  partner_id: string;
  environment: Environment;
  credit_id: string;
  amount: string;
  available: string;
  currency: Currency;
  reference: string;
}

export const onboardedPartnerResource = (onboarded: OnboardedPartner): OnboardedPartnerResource => ({
  partner_id: onboarded.partnerId,
  sandbox_api_key: onboarded.sandboxApiKey,
});

const restrictedKeyNamedResource = (key: RestrictedKeyNamed): RestrictedKeyNamedResource => ({
  key_id: key.keyId,
  label: key.label,
});

export const regeneratedKeyResource = (regenerated: RegeneratedKey): RegeneratedKeyResource => ({
  partner_id: regenerated.partnerId,
  environment: regenerated.environment,
  api_key: regenerated.apiKey,
  revoked_restricted_keys: regenerated.revokedRestrictedKeys.map(restrictedKeyNamedResource),
  kept_restricted_keys: regenerated.keptRestrictedKeys.map(restrictedKeyNamedResource),
});

export const walletCreditResource = (credit: WalletCredit): WalletCreditResource => ({
  partner_id: credit.partnerId,
  environment: credit.environment,
  credit_id: credit.creditId,
  amount: credit.amount,
  available: credit.available,
  currency: credit.currency,
  reference: credit.reference,
});

export const kycChangeResource = (change: KycChangeResult) =>
  'liveApiKey' in change
    ? { partner_id: change.partnerId, live_api_key: change.liveApiKey }
    : { partner_id: change.partnerId, kyc_status: change.kycStatus };
