import type { PartnerWithBalances } from '../../../application/operations/admin-queries';
import { BalanceView, PartnerView } from '../../../application/ports/read-models.port';
import { Corridor } from '../../../domain/corridor/corridor';
import { Currency } from '../../../domain/money/currency';
import { KycStatus } from '../../../domain/partner/partner.events';
import { Environment } from '../../../domain/shared/environment';

export interface PartnerEntryResource {
  partner_id: string;
  name: string;
  corridor: Corridor;
  kyc_status: KycStatus;
  created_at: string;
}

export interface PartnerListResource {
  count: number;
  partners: PartnerEntryResource[];
}

export interface WalletBalanceResource {
  available: string;
  currency: Currency;
  updated_at: string;
}

export interface PartnerResource extends PartnerEntryResource {
  balances: Record<Environment, WalletBalanceResource | null>;
}

const partnerEntryResource = (partner: PartnerView): PartnerEntryResource => ({
  partner_id: partner.partnerId,
  name: partner.name,
  corridor: partner.corridor,
  kyc_status: partner.kycStatus,
  created_at: partner.createdAt,
});

export const partnerListResource = (partners: readonly PartnerView[]): PartnerListResource => ({
  count: partners.length,
  partners: partners.map(partnerEntryResource),
});

const walletBalanceResource = (balance: BalanceView | null): WalletBalanceResource | null =>
  balance && { available: balance.available, currency: balance.currency, updated_at: balance.updatedAt };

export const partnerResource = (partner: PartnerWithBalances): PartnerResource => ({
  ...partnerEntryResource(partner),
  balances: {
    live: walletBalanceResource(partner.balances.live),
    sandbox: walletBalanceResource(partner.balances.sandbox),
  },
});
