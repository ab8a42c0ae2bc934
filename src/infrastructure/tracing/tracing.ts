/**
 * The service's own spans (event appends, projection runs, jobs, provider calls, webhook
 * deliveries), through a runner that tracing-sdk.ts installs when tracing is on. Off, `traced`
 * calls the work directly: no OpenTelemetry module is loaded and no span object is made.
 */
type SpanAttributes = Record<string, string | number | boolean>;

export interface SpanDescription {
  attributes?: SpanAttributes;
  /** `traceparent` values of the work this span continues (an order's placing request): span links. */
  links?: readonly (string | undefined)[];
  /** A new trace (background work), rather than a child of whatever span happens to be active. */
  root?: boolean;
  kind?: 'internal' | 'client' | 'consumer';
}

interface SpanRunner {
  run<T>(name: string, description: SpanDescription, work: () => Promise<T>): Promise<T>;
  currentTraceId(): string | undefined;
  shutdown(): Promise<void>;
}

let runner: SpanRunner | null = null;

export function installSpanRunner(next: SpanRunner | null): void {
  runner = next;
}

export function tracingOn(): boolean {
  return runner !== null;
}

/** Runs `work` in a span named `name`; `describe` is only called when tracing is on. */
export function traced<T>(name: string, work: () => Promise<T>, describe?: () => SpanDescription): Promise<T> {
  return runner ? runner.run(name, describe ? describe() : {}, work) : work();
}

/** The trace id of the active span (for the access log), when tracing is on. */
export function currentTraceId(): string | undefined {
  return runner?.currentTraceId();
}

/** Exports the spans still buffered; a no-op when tracing is off. */
export async function shutdownTracing(): Promise<void> {
  await runner?.shutdown().catch(() => undefined);
}
