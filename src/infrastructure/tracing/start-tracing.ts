import { tracingWanted } from './tracing-wanted';

/** Imported first by every entry point, before the instrumented modules load; the SDK only when OTEL_* asks for an exporter. */
if (tracingWanted(process.env)) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when tracing is configured
  (require('./tracing-sdk') as typeof import('./tracing-sdk')).startTracingSdk();
}
