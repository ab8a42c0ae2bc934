import {
  AllStreamResolvedEvent,
  Direction,
  END,
  RecordedEvent as EsdbRecordedEvent,
  ReadRevision,
  START,
  StreamingRead,
} from '@eventstore/db-client';
import { EventStoreDbClient } from './eventstoredb-client';
import { PageReader } from './eventstoredb-log-scan';
import { explainAllStreamError, explainStreamError, isStreamNotFound } from './eventstoredb-errors';
import { toEsdbPosition } from './eventstoredb-mapping';

export class EventStoreDbReadTimeoutError extends Error {
  constructor(what: string, idleMs: number) {
    super(`EventStoreDB ${what}: nothing received for ${idleMs} ms`);
    this.name = 'EventStoreDbReadTimeoutError';
  }
}

export class EventStoreDbReads {
  constructor(
    private readonly client: EventStoreDbClient,
    private readonly idleMs: number,
  ) {}

  /** A stream's records ([] when missing; a tombstoned one fails); reads made to decide an append go to the leader. */
  async streamRecords(
    streamId: string,
    options: { fromRevision: ReadRevision; direction: Direction; maxCount?: number },
    requiresLeader = false,
  ): Promise<EsdbRecordedEvent[]> {
    try {
      const read = this.client.readStream(streamId, {
        ...options,
        resolveLinkTos: false,
        requiresLeader,
        deadline: this.idleMs,
      });
      const resolved = await collect(read, this.idleMs, `read of ${streamId}`);
      return resolved.flatMap((event) => (event.event ? [event.event] : []));
    } catch (error) {
      if (isStreamNotFound(error)) return [];
      throw explainStreamError(error, streamId, 'read');
    }
  }

  allPages(direction: Direction): PageReader<AllStreamResolvedEvent> {
    return async (from, count) => {
      try {
        return await collect(
          this.client.readAll({
            fromPosition: from === 'start' ? START : from === 'end' ? END : toEsdbPosition(from),
            direction,
            maxCount: count,
            resolveLinkTos: false,
            deadline: this.idleMs,
          }),
          this.idleMs,
          `read of $all ${direction}`,
        );
      } catch (error) {
        throw explainAllStreamError(error);
      }
    };
  }
}

/** Collects a streaming read; one that receives nothing for `idleMs` fails with EventStoreDbReadTimeoutError. */
export async function collect<E>(read: StreamingRead<E>, idleMs: number, what: string): Promise<E[]> {
  // The iterator sees errors itself; this keeps a late one (after the loop ended) from being unhandled.
  read.on('error', () => undefined);
  const items: E[] = [];
  let timer: NodeJS.Timeout | undefined;
  const arm = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      read.destroy(new EventStoreDbReadTimeoutError(what, idleMs));
      read.cancel().catch(() => undefined);
    }, idleMs);
  };
  arm();
  try {
    for await (const item of read as AsyncIterable<E>) {
      items.push(item);
      arm();
    }
  } finally {
    clearTimeout(timer);
  }
  return items;
}

export async function settleAll(tasks: Promise<void>[]): Promise<void> {
  const outcomes = await Promise.allSettled(tasks);
  const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failed) throw failed.reason;
}
