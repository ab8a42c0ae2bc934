import { FeedPosition } from '../ports/partner-event-feed.port';

/** `limit` of GET /events: default and maximum (decision 0068). */
export const FEED_DEFAULT_LIMIT = 100;
export const FEED_MAX_LIMIT = 500;

const MAX_BIGINT = 2n ** 63n - 1n;

/** Opaque to partners: base64url of "<commit>.<prepare>", the log position of the event. */
export const encodeFeedCursor = (position: FeedPosition): string =>
  Buffer.from(`${position.commit}.${position.prepare}`).toString('base64url');

/** Null when the text is not a cursor this service gave. */
export function decodeFeedCursor(cursor: string): FeedPosition | null {
  if (!/^[A-Za-z0-9_-]{1,60}$/.test(cursor)) return null;
  const match = /^(\d{1,19})\.(\d{1,19})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) return null;
  const position = { commit: BigInt(match[1]), prepare: BigInt(match[2]) };
  if (position.commit > MAX_BIGINT || position.prepare > MAX_BIGINT) return null;
  // Only the canonical spelling: one cursor per position.
  return encodeFeedCursor(position) === cursor ? position : null;
}
