import { PartnerView } from '../../application/ports/read-models.port';
import { Corridor } from '../../domain/corridor/corridor';
import { KycStatus } from '../../domain/partner/partner.events';
import { iso } from './read-model-values';

export interface PartnerRow {
  partner_id: string;
  name: string;
  corridor: Corridor;
  kyc_status: KycStatus;
  created_at: Date | string;
}

export const PARTNER_COLUMNS = 'partner_id, name, corridor, kyc_status, created_at';

export function toPartnerView(row: PartnerRow): PartnerView {
  return {
    partnerId: row.partner_id,
    name: row.name,
    corridor: row.corridor,
    kycStatus: row.kyc_status,
    createdAt: iso(row.created_at),
  };
}
