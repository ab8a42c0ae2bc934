/**
 * Where the application finds the W3C trace context of the work it is doing (a request, a job),
 * to keep it with the events that work appends. Tracing installs a source at start when it is
 * configured; without one, nothing is kept and nothing is paid.
 */
export interface TraceContextSource {
  /** The `traceparent` of the active span, if a sampled one is active. */
  currentTraceparent(): string | undefined;
  /** The `traceparent` of the request that started the work in progress (an order's placing request), inside a job. */
  currentOriginTraceparent(): string | undefined;
}

let source: TraceContextSource | null = null;

export function useTraceContextSource(next: TraceContextSource | null): void {
  source = next;
}

export function currentTraceparent(): string | undefined {
  return source?.currentTraceparent();
}

export function currentOriginTraceparent(): string | undefined {
  return source?.currentOriginTraceparent();
}

const TRACEPARENT = /^[\da-f]{2}-([\da-f]{32})-[\da-f]{16}-[\da-f]{2}$/;

/** The trace id inside a `traceparent`, or null. */
export function traceIdOf(traceparent: string | undefined | null): string | null {
  const match = traceparent ? TRACEPARENT.exec(traceparent) : null;
  return match ? match[1] : null;
}
