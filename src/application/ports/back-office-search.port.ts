import { Corridor } from '../../domain/corridor/corridor';
import { KycStatus } from '../../domain/partner/partner.events';
import { Environment } from '../../domain/shared/environment';
import { TransactionStatus } from '../../domain/transaction/transaction.decider';
import { StoredOrderView, PartnerView } from './read-models.port';

/** The operators' partner list: every field optional, newest first. */
export interface PartnerSearch {
  /** Part of the name or of the partner id, any case. */
  text?: string;
  corridor?: Corridor;
  kycStatus?: KycStatus;
  limit: number;
}

/** The operators' order search, across partners: every field optional, newest first. */
export interface OrderSearch {
  partnerId?: string;
  environment?: Environment;
  /** The internal status (operators see DISPUTED too). */
  status?: TransactionStatus;
  /** Inclusive start and exclusive end, as ISO instants. */
  createdFrom?: string;
  createdTo?: string;
  reference?: string;
  /** A topup's recipient, in E.164 as stored. */
  phone?: string;
  /** A bill payment's consumer number, as the partner gave it. */
  consumerNumber?: string;
  limit: number;
}

/** Work waiting in the durable job queue, one line per kind. */
export interface JobBacklogLine {
  kind: string;
  /** Not done yet. */
  open: number;
  /** Open and due by now. */
  due: number;
  /** Open, tried at least once and not running now: waiting for its retry. */
  retrying: number;
  /** Claimed by a worker right now. */
  running: number;
  /** The due time of the oldest open job, or null when none is open. */
  oldestDueAt: string | null;
  lastError: string | null;
}

/** Queries only the back office needs; kept apart from the read models partners' requests use. */
export interface BackOfficeSearch {
  partners(search: PartnerSearch): Promise<PartnerView[]>;
  orders(search: OrderSearch): Promise<StoredOrderView[]>;
  jobBacklog(now: Date): Promise<JobBacklogLine[]>;
}

export const BACK_OFFICE_SEARCH = Symbol('BackOfficeSearch');
