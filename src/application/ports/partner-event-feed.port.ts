import { Environment } from '../../domain/shared/environment';

export const PARTNER_EVENT_FEED = Symbol('PARTNER_EVENT_FEED');

/**
 * A feed entry's place: the log position of the event that caused it. Feed entries are written in
 * this order by one checkpointed projector, so a reader that sees one entry sees every earlier one.
 */
export interface FeedPosition {
  commit: bigint;
  prepare: bigint;
}

export interface FeedEntry {
  position: FeedPosition;
  eventId: string;
  event: string;
  /** The webhook body, byte for byte. */
  body: string;
}

/** The partner-visible events of one partner and environment, in the order they happened. */
export interface PartnerEventFeed {
  /** Entries after `after` (from the start when null), oldest first, at most `limit`. */
  entries(
    owner: { partnerId: string; environment: Environment },
    after: FeedPosition | null,
    limit: number,
  ): Promise<FeedEntry[]>;
  /** The latest `limit` entries, oldest first. */
  latest(owner: { partnerId: string; environment: Environment }, limit: number): Promise<FeedEntry[]>;
}
