import { ServerResponse } from 'node:http';
import { PartnerEventsPage } from '../../../application/events-feed/read-partner-events';
import { StreamEndReason, WatchedStream } from '../../../application/events-feed/event-stream-watch';
import { FeedPosition, comparePositions } from '../../../application/ports/partner-event-feed.port';
import { decodeFeedCursor } from '../../../application/events-feed/feed-cursor';
import { Environment } from '../../../domain/shared/environment';

export interface EventStreamTiming {
  /** A comment line after this long without a write, so proxies and clients see the connection alive. */
  heartbeatMs: number;
  /** Then the stream ends and the client reconnects with Last-Event-ID. */
  maxMs: number;
}

const EVENT_STREAM_TIMING: EventStreamTiming = { heartbeatMs: 15_000, maxMs: 5 * 60_000 };
/** What an EventSource waits before reconnecting. */
const RETRY_MS = 2_000;

/** The name of a stream's last event, which says why it ended (no `id:`, so Last-Event-ID stays the last entry's). */
const STREAM_CLOSED_EVENT = 'stream.closed';

// One Server-Sent Events answer: the feed after the cursor, then new entries (decision 0069). The watch checks
// the key every second and bounds what may be read; when the key may no longer read or time is up, the last
// event is `stream.closed` with `{"reason": …, "detail": …}`.
export class EventStreamSession implements WatchedStream {
  private closed = false;
  private wake: (() => void) | null = null;
  private lastWriteAt = Date.now();
  /** How far the feed may be read: its latest position when the key was last found good. */
  private readableUpTo: FeedPosition | null = null;
  private cursor: string | null;

  constructor(
    readonly streamId: string,
    readonly partnerId: string,
    readonly environment: Environment,
    readonly keyId: string,
    readonly ip: string,
    private readonly out: ServerResponse,
    private readonly read: (after: string | null, upTo: FeedPosition) => Promise<PartnerEventsPage>,
    /** Read when the request was admitted, before the answer started. */
    private readonly first: PartnerEventsPage,
    private readonly timing: EventStreamTiming = EVENT_STREAM_TIMING,
  ) {
    this.cursor = first.nextCursor;
    out.on('close', () => this.finish());
  }

  async run(): Promise<void> {
    const startedAt = Date.now();
    try {
      await this.write(`retry: ${RETRY_MS}\n\n`);
      await this.send(this.first);
      while (!this.closed) {
        const upTo = this.readableUpTo;
        if (upTo && this.behind(upTo)) {
          await this.send(await this.read(this.cursor, upTo));
          continue;
        }
        const left = this.timing.maxMs - (Date.now() - startedAt);
        if (left <= 0) {
          this.end('lifetime_reached', 'the stream ends after a while; reconnect with Last-Event-ID');
          break;
        }
        if (Date.now() - this.lastWriteAt >= this.timing.heartbeatMs) await this.write(': heartbeat\n\n');
        await this.pause(Math.min(left, this.timing.heartbeatMs - (Date.now() - this.lastWriteAt)));
      }
    } finally {
      this.finish();
    }
  }

  verified(head: FeedPosition | null): void {
    if (this.closed || head === null) return;
    this.readableUpTo = head;
    this.wake?.();
  }

  /** Sends the last event, naming the reason, and ends the answer. */
  end(reason: StreamEndReason, detail: string): void {
    if (this.closed) return;
    if (!this.out.writableEnded && !this.out.destroyed) {
      this.out.write(`event: ${STREAM_CLOSED_EVENT}\ndata: ${JSON.stringify({ reason, detail })}\n\n`);
    }
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.wake?.();
    if (this.out.writableEnded || this.out.destroyed) return;
    // A client that reads nothing does not hold the socket: what it has not taken is dropped.
    if (this.out.writableNeedDrain) this.out.destroy();
    else this.out.end();
  }

  /** True when the feed holds entries after the cursor up to `upTo`. */
  private behind(upTo: FeedPosition): boolean {
    if (this.cursor === null) return true;
    const at = decodeFeedCursor(this.cursor);
    return at === null || comparePositions(at, upTo) < 0;
  }

  private async send(page: PartnerEventsPage): Promise<void> {
    for (const entry of page.entries) {
      if (this.closed) return;
      await this.write(`id: ${entry.cursor}\nevent: ${entry.event}\ndata: ${entry.body}\n\n`);
      this.cursor = entry.cursor;
    }
    if (!this.closed && page.entries.length === 0 && this.readableUpTo) {
      // Nothing of this owner up to the head we were given (entries of another environment never
      // reach it): read no further until the head moves.
      this.readableUpTo = null;
    }
  }

  private async write(chunk: string): Promise<void> {
    if (this.closed) return;
    this.lastWriteAt = Date.now();
    if (this.out.write(chunk)) return;
    await new Promise<void>((resolve) => {
      this.wake = resolve;
      this.out.once('drain', resolve);
    });
    this.wake = null;
  }

  private async pause(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.max(ms, 0));
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wake = null;
  }
}
