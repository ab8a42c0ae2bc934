import { tracingWanted } from './tracing-wanted';

/**
 * Imported first by every entry point (main.ts, background-main.ts), before the modules that
 * tracing instruments (http, undici, pg, fastify) are loaded. The SDK is required only when the
 * OTEL_* variables ask for an exporter.
 */
if (tracingWanted(process.env)) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when tracing is configured
  (require('./tracing-sdk') as typeof import('./tracing-sdk')).startTracingSdk();
}
