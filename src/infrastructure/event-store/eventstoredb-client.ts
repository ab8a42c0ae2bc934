import {
  AllStreamResolvedEvent,
  AppendResult as EsdbAppendResult,
  AppendToStreamOptions,
  EventData,
  ReadAllOptions as EsdbReadAllOptions,
  ReadStreamOptions,
  ResolvedEvent,
  StreamingRead,
} from '@eventstore/db-client';
import { DEFAULT_MAX_APPEND_SIZE_BYTES } from './eventstoredb-append-size';
import { BackoffPolicy, DEFAULT_BACKOFF, SubscribingClient } from './eventstoredb-subscription';

export interface EventStoreDbClient extends SubscribingClient {
  appendToStream(streamName: string, events: EventData[], options: AppendToStreamOptions): Promise<EsdbAppendResult>;
  readStream(streamName: string, options: ReadStreamOptions): StreamingRead<ResolvedEvent>;
  readAll(options: EsdbReadAllOptions): StreamingRead<AllStreamResolvedEvent>;
  dispose(): Promise<void>;
}

export interface EventStoreDbOptions {
  /** Per-append deadline, ms, capped by the server's WriteTimeoutMs (2,000 by default); past it the outcome is unknown. */
  appendDeadlineMs: number;
  maxAppendSizeBytes: number;
  /** A read that receives nothing for this long is cancelled, ms: client 6.2.1 ignores the deadline of streaming reads. */
  readIdleTimeoutMs: number;
  claimLeaseMs: number;
  maxAppendAttempts: number;
  /** Follow $all with a native subscription while the store has subscribers, so appends by other processes wake them too. */
  watchRemoteAppends: boolean;
  subscriptionBackoff: BackoffPolicy;
  onWarning?: (message: string, error: unknown) => void;
}

export const DEFAULT_EVENTSTOREDB_OPTIONS: EventStoreDbOptions = {
  appendDeadlineMs: 2_000,
  maxAppendSizeBytes: DEFAULT_MAX_APPEND_SIZE_BYTES,
  readIdleTimeoutMs: 30_000,
  claimLeaseMs: 5 * 60_000,
  maxAppendAttempts: 20,
  watchRemoteAppends: true,
  subscriptionBackoff: DEFAULT_BACKOFF,
};
