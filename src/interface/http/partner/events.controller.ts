import { Controller, Get, Headers, Logger, Query, Req, Res, UseGuards } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiHeader, ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Caller } from '../../../application/auth/caller';
import { FEED_DEFAULT_LIMIT, FEED_MAX_LIMIT } from '../../../application/events-feed/feed-cursor';
import {
  PartnerEventsPage,
  ReadLatestPartnerEvents,
  ReadPartnerEvents,
} from '../../../application/events-feed/read-partner-events';
import { PartnerEventListResource, partnerEventsResource } from '../../shared/partner-event-resources';
import { ServiceError } from '../../../application/shared/service-error';
import {
  EventStreamWatch,
  STREAM_RETRY_AFTER_SECONDS,
  TooManyStreams,
} from '../../../application/events-feed/event-stream-watch';
import { FeedPosition } from '../../../application/ports/partner-event-feed.port';
import { ServiceErrorWithHeaders } from '../errors/api-exception.filter';
import { ApiErrorResponses } from '../openapi/api-error-responses';
import { queryLimit, refuseUnknownQuery } from '../validation/query-values';
import { PartnerEventListDto } from './dto/partner-event-response.dto';
import { EventStreamSession } from './event-stream-session';
import { EventStreams } from './event-streams';
import { CurrentCaller } from '../../shared/partner-request';
import { PartnerAuthGuard } from './partner-auth.guard';

const AFTER_DESCRIPTION =
  'A cursor from next_cursor or a stream event id: only events after it. Absent: from the first event.';

const LAST_DESCRIPTION = `1 to ${FEED_MAX_LIMIT}: only your latest events, this many (oldest first), instead of reading from the first one; next_cursor is where to follow from. Not with \`after\` or \`limit\`.`;

const queryText = (query: Record<string, unknown>, name: string): string | null => {
  const value = query[name];
  if (value === undefined) return null;
  if (typeof value !== 'string') throw new ServiceError('validation_failed', `${name}: give it once`);
  return value;
};

@ApiTags('events')
@ApiBearerAuth()
@Controller('v1/partner/events')
@UseGuards(PartnerAuthGuard)
export class EventsController {
  private readonly log = new Logger('EventsController');

  constructor(
    private readonly queries: QueryBus,
    private readonly streams: EventStreams,
    private readonly watch: EventStreamWatch,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Your events, in the order they happened',
    description:
      "The key's environment's transaction.succeeded and transaction.failed events, with the webhooks' ids and " +
      'bodies. Follow next_cursor.',
    operationId: 'listEvents',
  })
  @ApiOkResponse({ type: PartnerEventListDto, description: 'One page, oldest first' })
  @ApiErrorResponses({
    400: 'validation_failed: `after` is not a cursor of this feed, `limit` or `last` is out of range, or `last` comes with `after` or `limit`',
  })
  @ApiQuery({ name: 'after', required: false, description: AFTER_DESCRIPTION, schema: { type: 'string' } })
  @ApiQuery({
    name: 'last',
    required: false,
    description: LAST_DESCRIPTION,
    schema: { type: 'integer', minimum: 1, maximum: FEED_MAX_LIMIT },
  })
  @ApiQuery({
    name: 'limit',
    required: false,
    description: `1 to ${FEED_MAX_LIMIT}, default ${FEED_DEFAULT_LIMIT}`,
    schema: { type: 'integer', minimum: 1, maximum: FEED_MAX_LIMIT, default: FEED_DEFAULT_LIMIT },
  })
  async list(
    @CurrentCaller() caller: Caller,
    @Query() query: Record<string, unknown>,
  ): Promise<PartnerEventListResource> {
    refuseUnknownQuery(query, ['after', 'limit', 'last']);
    if (query.last !== undefined) {
      if (query.after !== undefined || query.limit !== undefined)
        throw new ServiceError('validation_failed', 'last: give it without after and limit');
      const last = queryLimit(query.last, FEED_DEFAULT_LIMIT, FEED_MAX_LIMIT, 'last');
      return partnerEventsResource(await this.queries.execute(new ReadLatestPartnerEvents(caller, last)));
    }
    const limit = queryLimit(query.limit, FEED_DEFAULT_LIMIT, FEED_MAX_LIMIT);
    const page = await this.queries.execute(new ReadPartnerEvents(caller, queryText(query, 'after'), limit));
    return partnerEventsResource(page);
  }

  @Get('stream')
  @ApiOperation({
    summary: 'Your events as a Server-Sent Events stream',
    description:
      'Each event: `id:` its cursor, `event:` its name, `data:` the webhook body. ' +
      'Reconnect with `Last-Event-ID` (or `after`) to resume. ' +
      'With `last`, it starts with your latest events (a `Last-Event-ID` on reconnection wins over it). ' +
      'Comment lines are heartbeats. ' +
      'The key, its expiry, your KYC (live keys) and your IP allowlist are checked again at least once a second: ' +
      'within a second of a change the stream ends with a last event `event: stream.closed`, ' +
      '`data: {"reason": ..., "detail": ...}` (reason: key_revoked, key_expired, kyc_suspended, ip_not_allowed, ' +
      'access_change_pending, lifetime_reached after 5 minutes, service_shutting_down, service_unavailable). ' +
      'At most a few streams may be open per key and per partner and environment (429 rate_limit_exceeded with Retry-After beyond them).',
    operationId: 'streamEvents',
  })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({
    description: 'A text/event-stream',
    content: { 'text/event-stream': { schema: { type: 'string' } } },
  })
  @ApiErrorResponses({
    400: 'validation_failed: `after` or Last-Event-ID is not a cursor of this feed, `last` is out of range, or `last` comes with `after`',
    429: 'rate_limit_exceeded: the rate limit, or the most open event streams per key or per partner and environment; see Retry-After',
  })
  @ApiQuery({ name: 'after', required: false, description: AFTER_DESCRIPTION, schema: { type: 'string' } })
  @ApiQuery({
    name: 'last',
    required: false,
    description: `1 to ${FEED_MAX_LIMIT}: start with your latest events, this many, instead of the first one; ignored when Last-Event-ID is sent. Not with \`after\`.`,
    schema: { type: 'integer', minimum: 1, maximum: FEED_MAX_LIMIT },
  })
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description: 'The id of the last event received; wins over `after`',
  })
  async stream(
    @CurrentCaller() caller: Caller,
    @Query() query: Record<string, unknown>,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    refuseUnknownQuery(query, ['after', 'last']);
    if (query.last !== undefined && query.after !== undefined)
      throw new ServiceError('validation_failed', 'last: give it without after');
    const last = query.last === undefined ? null : queryLimit(query.last, FEED_DEFAULT_LIMIT, FEED_MAX_LIMIT, 'last');
    if (this.streams.shuttingDown) throw new ServiceError('service_unavailable', 'the service is shutting down');
    const after = lastEventId || queryText(query, 'after');
    // The first page is read before the answer starts, so a bad cursor still gets its 400.
    const first =
      last !== null && !lastEventId
        ? await this.queries.execute(new ReadLatestPartnerEvents(caller, last))
        : await this.queries.execute(new ReadPartnerEvents(caller, after, FEED_MAX_LIMIT));
    // A HEAD request gets the headers only; there is no stream to hold open (or count) for it.
    const head = reply.request.method === 'HEAD';
    const session = new EventStreamSession(
      randomUUID(),
      caller.partnerId,
      caller.environment,
      caller.keyId,
      request.ip,
      reply.raw,
      (cursor: string | null, upTo: FeedPosition): Promise<PartnerEventsPage> =>
        this.queries.execute(new ReadPartnerEvents(caller, cursor, FEED_MAX_LIMIT, upTo)),
      first,
    );
    const unwatch = head ? async () => undefined : await this.watchOrRefuse(session);
    reply.hijack();
    reply.raw.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    });
    if (head) {
      reply.raw.end();
      return;
    }
    const forget = this.streams.add(() => {
      session.end('service_shutting_down', 'the service is shutting down; reconnect with Last-Event-ID');
    });
    session
      .run()
      .catch((error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        this.log.warn(`event stream of ${caller.partnerId} ended: ${reason}`);
      })
      .finally(() => {
        forget();
        void unwatch();
      });
  }

  /** Watches the stream from now on, or refuses it with 429 and Retry-After when too many are open. */
  private async watchOrRefuse(session: EventStreamSession): Promise<() => Promise<void>> {
    try {
      return await this.watch.watch(session);
    } catch (error) {
      if (!(error instanceof TooManyStreams)) throw error;
      throw new ServiceErrorWithHeaders('rate_limit_exceeded', error.detail ?? 'too many open event streams', {
        'retry-after': String(STREAM_RETRY_AFTER_SECONDS),
      });
    }
  }
}
