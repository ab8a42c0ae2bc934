// Run as its own process (tracing must load first): makes one span and prints its trace id once it is exported.
import '../../src/infrastructure/tracing/start-tracing';
import { currentTraceId, shutdownTracing, traced } from '../../src/infrastructure/tracing/tracing';

let traceId: string | undefined;
void traced(
  'probe',
  async () => {
    traceId = currentTraceId();
  },
  () => ({ root: true }),
)
  .then(shutdownTracing)
  .then(() => console.log(JSON.stringify({ traceId: traceId ?? null })));
