import { ServerResponse } from 'node:http';
import { PartnerEventsPage } from '../../../application/events-feed/read-partner-events';

export interface EventStreamTiming {
  /** How often the feed is read again once caught up. */
  pollMs: number;
  /** A comment line after this long without a write, so proxies and clients see the connection alive. */
  heartbeatMs: number;
  /** Then the stream ends and the client reconnects with Last-Event-ID (its key is checked again). */
  maxMs: number;
}

export const EVENT_STREAM_TIMING: EventStreamTiming = { pollMs: 1_000, heartbeatMs: 15_000, maxMs: 5 * 60_000 };
/** What an EventSource waits before reconnecting. */
const RETRY_MS = 2_000;

/**
 * One Server-Sent Events answer: every feed entry after the cursor as `id: <cursor>`,
 * `event: <name>`, `data: <webhook body>`, then new ones as the read model gets them.
 */
export class EventStreamSession {
  private closed = false;
  private wake: (() => void) | null = null;
  private lastWriteAt = Date.now();

  constructor(
    private readonly out: ServerResponse,
    private readonly read: (after: string | null) => Promise<PartnerEventsPage>,
    private readonly timing: EventStreamTiming = EVENT_STREAM_TIMING,
  ) {
    out.on('close', () => this.close());
  }

  async run(first: PartnerEventsPage): Promise<void> {
    const startedAt = Date.now();
    let page = first;
    try {
      await this.write(`retry: ${RETRY_MS}\n\n`);
      while (!this.closed) {
        for (const entry of page.entries) {
          if (this.closed) return;
          await this.write(`id: ${entry.cursor}\nevent: ${entry.event}\ndata: ${entry.body}\n\n`);
        }
        if (!page.hasMore) {
          if (Date.now() - startedAt >= this.timing.maxMs) break;
          if (Date.now() - this.lastWriteAt >= this.timing.heartbeatMs) await this.write(': heartbeat\n\n');
          await this.pause(this.timing.pollMs);
        }
        if (this.closed) break;
        page = await this.read(page.nextCursor);
      }
    } finally {
      this.close();
    }
  }

  /** Ends the answer (shutdown, client gone, or the stream's time is up). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.wake?.();
    if (!this.out.writableEnded) this.out.end();
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
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wake = null;
  }
}
