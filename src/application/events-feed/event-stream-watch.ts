import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Environment } from '../../domain/shared/environment';
import { AccessEndReason, addressRefusal, keyRefusal } from '../access/access-refusal';
import { CLOCK, Clock } from '../ports/clock.port';
import { EVENT_STREAM_LEASES, EventStreamLeases } from '../ports/event-stream-leases.port';
import { FeedPosition, PARTNER_EVENT_FEED, PartnerEventFeed, feedOwnerKey } from '../ports/partner-event-feed.port';
import { READ_MODELS, ReadModels } from '../ports/read-models.port';
import { ServiceError } from '../shared/service-error';
import { SERVICE_SETTINGS, ServiceSettings } from '../shared/service-settings';

/** Why an event stream ended, as its last event says: its key's access, or the stream itself. */
export type StreamEndReason = AccessEndReason | 'lifetime_reached' | 'service_shutting_down' | 'service_unavailable';

/** An open event stream, as the watch sees it. */
export interface WatchedStream {
  readonly streamId: string;
  readonly partnerId: string;
  readonly environment: Environment;
  readonly keyId: string;
  /** The caller's address when the stream was opened (trusted proxies applied). */
  readonly ip: string;
  /**
   * The key was checked and may still read: the stream may send what the feed held up to `head`
   * (read before the check), and nothing after it until the next check.
   */
  verified(head: FeedPosition | null): void;
  /** The stream must end now, with this reason as its last event. */
  end(reason: StreamEndReason, detail: string): void;
}

/** How often the open streams' keys are checked, and how long a lease lives without renewal. */
export const STREAM_CHECK_EVERY_MS = 1_000;
const LEASE_TTL_MS = 30_000;
const LEASE_RENEW_EVERY_MS = 10_000;
/** What a client refused for too many streams waits before it tries again. */
export const STREAM_RETRY_AFTER_SECONDS = 10;

export class TooManyStreams extends ServiceError {
  constructor(detail: string) {
    super('rate_limit_exceeded', detail);
  }
}

/**
 * The open event streams of this process, checked together once a second with one read of the feed and one of
 * the keys' access: a stream that lost its access ends with the reason, and a failed check ends all (decisions
 * 0069, 0079). Streams are counted per key and per partner across processes (leases, decision 0070).
 */
@Injectable()
export class EventStreamWatch implements OnApplicationShutdown {
  private readonly logger = new Logger('EventStreamWatch');
  private readonly streams = new Map<string, WatchedStream>();
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;
  private lastRenewal = Date.now();
  private stopped = false;

  constructor(
    @Inject(PARTNER_EVENT_FEED) private readonly feed: PartnerEventFeed,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    @Inject(EVENT_STREAM_LEASES) private readonly leases: EventStreamLeases,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(SERVICE_SETTINGS) private readonly settings: ServiceSettings,
  ) {}

  /**
   * Takes a place for the stream (429 TooManyStreams beyond the limits) and watches it from now on.
   * The returned function stops watching it and gives its place back.
   */
  async watch(stream: WatchedStream): Promise<() => Promise<void>> {
    const limits = { perKey: this.settings.eventStreamsPerKey, perPartner: this.settings.eventStreamsPerPartner };
    const refused = await this.leases.acquire(stream, limits, LEASE_TTL_MS);
    if (refused === 'key')
      throw new TooManyStreams(`at most ${limits.perKey} open event streams per API key; close one first`);
    if (refused === 'partner')
      throw new TooManyStreams(
        `at most ${limits.perPartner} open event streams per partner and environment, all keys together; close one first`,
      );
    this.streams.set(stream.streamId, stream);
    this.schedule();
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      this.streams.delete(stream.streamId);
      await this.leases.release(stream.streamId).catch((error: unknown) => {
        this.logger.warn(
          `the lease of event stream ${stream.streamId} was not released (it lapses): ${describe(error)}`,
        );
      });
    };
  }

  /** Checks every open stream now (the timer does it once a second). */
  check(): Promise<void> {
    this.checking ??= this.checkAll().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** The next check a second after the last one started: a slow check does not stretch the second. */
  private schedule(delayMs = STREAM_CHECK_EVERY_MS): void {
    if (this.timer || this.stopped || this.streams.size === 0) return;
    this.timer = setTimeout(() => {
      const startedAt = Date.now();
      void this.check().finally(() => {
        this.timer = null;
        this.schedule(Math.max(0, STREAM_CHECK_EVERY_MS - (Date.now() - startedAt)));
      });
    }, delayMs);
    this.timer.unref();
  }

  private async checkAll(): Promise<void> {
    const streams = [...this.streams.values()];
    if (streams.length === 0) return;
    const owners = new Map(streams.map((stream) => [feedOwnerKey(stream), stream]));
    let heads: Map<string, FeedPosition>;
    let accesses: Awaited<ReturnType<ReadModels['apiKeyAccessByIds']>>;
    try {
      // The feed first, then the keys: what a stream may send was in the feed before its key was found good.
      heads = await this.feed.heads([...owners.values()]);
      accesses = await this.readModels.apiKeyAccessByIds([...new Set(streams.map((stream) => stream.keyId))]);
    } catch (error) {
      this.logger.warn(`the open event streams could not be checked (${describe(error)}); they are ended`);
      for (const stream of streams)
        stream.end('service_unavailable', 'the key could not be checked again; reconnect in a moment');
      return;
    }
    const now = this.clock.now();
    for (const stream of streams) {
      if (!this.streams.has(stream.streamId)) continue;
      const access = accesses.get(stream.keyId) ?? null;
      const sameOwner = access?.key.partnerId === stream.partnerId;
      const refused =
        keyRefusal(sameOwner ? access : null, stream.environment, now) ??
        (access ? addressRefusal(access, stream.ip) : null);
      if (refused) stream.end(refused.reason, refused.detail);
      else stream.verified(heads.get(feedOwnerKey(stream)) ?? null);
    }
    if (Date.now() - this.lastRenewal >= LEASE_RENEW_EVERY_MS) {
      this.lastRenewal = Date.now();
      await this.leases.renew([...this.streams.keys()], LEASE_TTL_MS).catch((error: unknown) => {
        this.logger.warn(`the leases of the open event streams were not renewed: ${describe(error)}`);
      });
    }
  }
}

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));
