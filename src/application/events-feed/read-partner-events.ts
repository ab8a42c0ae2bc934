import { Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { Caller } from '../auth/caller';
import { FeedPosition, PARTNER_EVENT_FEED, PartnerEventFeed } from '../ports/partner-event-feed.port';
import { ServiceError } from '../shared/service-error';
import { decodeFeedCursor, encodeFeedCursor } from './feed-cursor';

export interface PartnerEventsPage {
  /** Oldest first; `body` is the webhook body, byte for byte. */
  entries: { cursor: string; eventId: string; event: string; body: string }[];
  /** Where to go on from: the last entry's cursor, or the one asked with when there was none. */
  nextCursor: string | null;
  hasMore: boolean;
}

export class ReadPartnerEvents extends Query<PartnerEventsPage> {
  constructor(
    readonly caller: Caller,
    /** A cursor from an earlier page or stream; null reads from the first event. */
    readonly after: string | null,
    readonly limit: number,
    /** No entry after this position (an event stream reads only what was in the feed when its key was last checked). */
    readonly upTo?: FeedPosition,
  ) {
    super();
  }
}

/** The caller's partner-visible events of the key's environment, in the order they happened. */
@QueryHandler(ReadPartnerEvents)
export class ReadPartnerEventsHandler implements IQueryHandler<ReadPartnerEvents, PartnerEventsPage> {
  constructor(@Inject(PARTNER_EVENT_FEED) private readonly feed: PartnerEventFeed) {}

  async execute({ caller, after, limit, upTo }: ReadPartnerEvents): Promise<PartnerEventsPage> {
    const position = after === null ? null : decodeFeedCursor(after);
    if (after !== null && position === null) {
      throw new ServiceError('validation_failed', 'after: not a cursor of this feed');
    }
    const owner = { partnerId: caller.partnerId, environment: caller.environment };
    const rows = await this.feed.entries(owner, position, limit + 1, upTo);
    const entries = rows.slice(0, limit).map(({ position, eventId, event, body }) => ({
      cursor: encodeFeedCursor(position),
      eventId,
      event,
      body,
    }));
    const nextCursor = entries.length ? entries[entries.length - 1].cursor : after;
    return { entries, nextCursor, hasMore: rows.length > limit };
  }
}

export class ReadLatestPartnerEvents extends Query<PartnerEventsPage> {
  constructor(
    readonly caller: Caller,
    readonly limit: number,
  ) {
    super();
  }
}

/**
 * The caller's latest events of the key's environment, oldest first, and the cursor to follow
 * from: where a live list starts without reading the feed from its beginning.
 */
@QueryHandler(ReadLatestPartnerEvents)
export class ReadLatestPartnerEventsHandler implements IQueryHandler<ReadLatestPartnerEvents, PartnerEventsPage> {
  constructor(@Inject(PARTNER_EVENT_FEED) private readonly feed: PartnerEventFeed) {}

  async execute({ caller, limit }: ReadLatestPartnerEvents): Promise<PartnerEventsPage> {
    const rows = await this.feed.latest({ partnerId: caller.partnerId, environment: caller.environment }, limit);
    const entries = rows.map(({ position, eventId, event, body }) => ({
      cursor: encodeFeedCursor(position),
      eventId,
      event,
      body,
    }));
    return { entries, nextCursor: entries.length ? entries[entries.length - 1].cursor : null, hasMore: false };
  }
}
