import {
  AccessDeniedError,
  DeadlineExceededError,
  ErrorType,
  MaxAppendSizeExceededError,
  StreamDeletedError,
  StreamNotFoundError,
  TimeoutError,
  UnavailableError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import { ExpectedRevision, WrongExpectedRevisionError } from '../../application/ports/event-store.port';
import { fromEsdbCurrentRevision } from './eventstoredb-mapping';

/** What reading $all needs: by default only $admins may read it (and subscribe to it). */
const ALL_STREAM_READ_RIGHT =
  "the service's EventStoreDB user must be able to read $all: put it in $admins or grant read on $$$all";

/** What the service's own streams need; the server's default ACL of user streams allows it to every authenticated user. */
const STREAM_RIGHTS = "the service's EventStoreDB user must be able to read and write the service's streams";

export class EventStoreDbAccessDeniedError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'EventStoreDbAccessDeniedError';
  }
}

/** A tombstoned stream: the service never deletes streams, so a tombstone is never taken for a missing stream. */
export class EventStoreDbStreamDeletedError extends Error {
  constructor(
    readonly streamId: string,
    options?: ErrorOptions,
  ) {
    super(
      `stream ${streamId} was hard-deleted (tombstoned) in EventStoreDB: the service never deletes streams and will not read it as empty; restore EventStoreDB from a backup taken before the deletion`,
      options,
    );
    this.name = 'EventStoreDbStreamDeletedError';
  }
}

export class EventStoreDbAppendTooLargeError extends Error {
  constructor(
    readonly streamId: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(`stream ${streamId}: ${message}; nothing was written`, options);
    this.name = 'EventStoreDbAppendTooLargeError';
  }
}

/** An append that may or may not have been written: read the stream before deciding again; a repeat with the same ids is safe. */
export class EventStoreDbAppendOutcomeUnknownError extends Error {
  constructor(
    readonly streamId: string,
    options: ErrorOptions & { cause: unknown },
  ) {
    super(
      `stream ${streamId}: the append's outcome is unknown (${describeError(options.cause)}); it may have been written: read the stream before deciding again`,
      options,
    );
    this.name = 'EventStoreDbAppendOutcomeUnknownError';
  }
}

/** The client's errors are all named Error and often have no message; their `type` says what happened. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const kind = 'type' in error && typeof error.type === 'string' ? error.type : error.name;
  return error.message ? `${kind}: ${error.message}` : kind;
}

export function isWrongExpectedVersion(error: unknown): error is WrongExpectedVersionError {
  return (
    error instanceof WrongExpectedVersionError ||
    (isPlainErrorOfType(error, ErrorType.WRONG_EXPECTED_VERSION) && 'actualVersion' in error)
  );
}

export function isStreamNotFound(error: unknown): boolean {
  return error instanceof StreamNotFoundError || isPlainErrorOfType(error, ErrorType.STREAM_NOT_FOUND);
}

export function isStreamDeleted(error: unknown): boolean {
  return error instanceof StreamDeletedError || isPlainErrorOfType(error, ErrorType.STREAM_DELETED);
}

export function isAccessDenied(error: unknown): boolean {
  return error instanceof AccessDeniedError || isPlainErrorOfType(error, ErrorType.ACCESS_DENIED);
}

export function isMaxAppendSizeExceeded(error: unknown): boolean {
  return (
    error instanceof MaxAppendSizeExceededError || isPlainErrorOfType(error, ErrorType.MAXIMUM_APPEND_SIZE_EXCEEDED)
  );
}

/** Errors after which an append may or may not have been written (write timeout, lost connection, aborted call); it may still commit. */
export function isOutcomeUnknown(error: unknown): boolean {
  return (
    error instanceof DeadlineExceededError ||
    error instanceof UnavailableError ||
    error instanceof TimeoutError ||
    [ErrorType.DEADLINE_EXCEEDED, ErrorType.UNAVAILABLE, ErrorType.TIMEOUT].some((type) =>
      isPlainErrorOfType(error, type),
    )
  );
}

function isPlainErrorOfType(error: unknown, type: ErrorType): error is Error & { type: ErrorType } {
  return error instanceof Error && 'type' in error && (error as { type: unknown }).type === type;
}

/** The client's WrongExpectedVersionError as the port's error, carrying the revision the caller asked for. */
export function translateAppendError(error: unknown, streamId: string, expected: ExpectedRevision): unknown {
  if (!isWrongExpectedVersion(error)) return error;
  return new WrongExpectedRevisionError(streamId, expected, fromEsdbCurrentRevision(error.actualVersion));
}

export function explainAllStreamError(error: unknown): unknown {
  if (!isAccessDenied(error)) return error;
  return new EventStoreDbAccessDeniedError(`EventStoreDB denied access to $all; ${ALL_STREAM_READ_RIGHT}`, {
    cause: error,
  });
}

/** A read or append error of one stream, explained (tombstone, missing right, oversized batch); others pass through unchanged. */
export function explainStreamError(error: unknown, streamId: string, operation: 'read' | 'append'): unknown {
  if (isStreamDeleted(error)) return new EventStoreDbStreamDeletedError(streamId, { cause: error });
  if (isAccessDenied(error)) {
    const what = operation === 'read' ? `reading stream ${streamId}` : `appending to stream ${streamId}`;
    return new EventStoreDbAccessDeniedError(`EventStoreDB denied ${what}; ${STREAM_RIGHTS}`, { cause: error });
  }
  if (isMaxAppendSizeExceeded(error)) {
    const limit = error instanceof MaxAppendSizeExceededError ? `${error.maxAppendSize} bytes` : 'its limit';
    return new EventStoreDbAppendTooLargeError(
      streamId,
      `EventStoreDB refused the batch as larger than its MaxAppendSize (${limit})`,
      { cause: error },
    );
  }
  return error;
}
