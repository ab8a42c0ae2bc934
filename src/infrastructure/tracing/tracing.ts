/** The service's own spans, through a runner tracing-sdk.ts installs; when tracing is off `traced` just calls the work. */
type SpanAttributes = Record<string, string | number | boolean>;

export interface SpanDescription {
  attributes?: SpanAttributes;
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

export function traced<T>(name: string, work: () => Promise<T>, describe?: () => SpanDescription): Promise<T> {
  return runner ? runner.run(name, describe ? describe() : {}, work) : work();
}

export function currentTraceId(): string | undefined {
  return runner?.currentTraceId();
}

export async function shutdownTracing(): Promise<void> {
  await runner?.shutdown().catch(() => undefined);
}
