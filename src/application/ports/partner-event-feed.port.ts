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

export interface FeedOwner {
  partnerId: string;
  environment: Environment;
}

/** The partner-visible events of one partner and environment, in the order they happened. */
export interface PartnerEventFeed {
  /**
   * Entries after `after` (from the start when null), oldest first, at most `limit`; with `upTo`,
   * none after that position.
   */
  entries(owner: FeedOwner, after: FeedPosition | null, limit: number, upTo?: FeedPosition): Promise<FeedEntry[]>;
  /** The position of each owner's latest entry (absent: no entry yet), in one read for them all. */
  heads(owners: readonly FeedOwner[]): Promise<Map<string, FeedPosition>>;
  /** The latest `limit` entries, oldest first. */
  latest(owner: FeedOwner, limit: number): Promise<FeedEntry[]>;
}

/** The key of an owner in the map `heads` answers. */
export const feedOwnerKey = (owner: FeedOwner): string => `${owner.partnerId} ${owner.environment}`;

export const comparePositions = (a: FeedPosition, b: FeedPosition): number =>
  a.commit !== b.commit ? (a.commit < b.commit ? -1 : 1) : a.prepare === b.prepare ? 0 : a.prepare < b.prepare ? -1 : 1;
