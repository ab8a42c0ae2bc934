import type { PartnerWithBalances } from '../../../application/operations/admin-queries';
import type { KycChangeResult } from '../../../application/partners/change-kyc-status';
import type { WalletCredit } from '../../../application/partners/credit-wallet';
import type { OnboardedPartner } from '../../../application/partners/onboard-partner';
import type { RegeneratedKey, RestrictedKeyNamed } from '../../../application/partners/regenerate-api-key';
import { BalanceView, PartnerView } from '../../../application/ports/read-models.port';

const partnerEntryResource = (partner: PartnerView) => ({
  partner_id: partner.partnerId,
  name: partner.name,
  corridor: partner.corridor,
  kyc_status: partner.kycStatus,
  created_at: partner.createdAt,
});

export const partnerListResource = (partners: readonly PartnerView[]) => ({
  count: partners.length,
  partners: partners.map(partnerEntryResource),
});

const walletBalanceResource = (balance: BalanceView | null) =>
  balance && { available: balance.available, currency: balance.currency, updated_at: balance.updatedAt };

export const partnerResource = (partner: PartnerWithBalances) => ({
  ...partnerEntryResource(partner),
  balances: {
    live: walletBalanceResource(partner.balances.live),
    sandbox: walletBalanceResource(partner.balances.sandbox),
  },
});

export const onboardedPartnerResource = (onboarded: OnboardedPartner) => ({
  partner_id: onboarded.partnerId,
  sandbox_api_key: onboarded.sandboxApiKey,
});

const restrictedKeyNamedResource = (key: RestrictedKeyNamed) => ({
  key_id: key.keyId,
  label: key.label,
});

export const regeneratedKeyResource = (regenerated: RegeneratedKey) => ({
  partner_id: regenerated.partnerId,
  environment: regenerated.environment,
  api_key: regenerated.apiKey,
  revoked_restricted_keys: regenerated.revokedRestrictedKeys.map(restrictedKeyNamedResource),
  kept_restricted_keys: regenerated.keptRestrictedKeys.map(restrictedKeyNamedResource),
});

/** A credit as the back office sees it: what was credited, and the balance after it. */
export const walletCreditResource = (credit: WalletCredit) => ({
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
