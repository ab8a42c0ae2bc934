import { NestFactory } from '@nestjs/core';
import { CommandBus } from '@nestjs/cqrs';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule, AppOptions } from './app.module';
import { ServiceConfig } from '../../config/service-config';
import { logDestination } from '../../infrastructure/logging/log-destination';
import { PinoNestLogger } from '../../infrastructure/logging/pino-nest-logger';
import { observeRequests, requestIdGenerator } from '../../infrastructure/metrics/http-request-observer';
import { answerClusterMetricsRequests } from '../../infrastructure/metrics/metrics-text';
import { registerServiceGauges } from '../../infrastructure/metrics/service-gauges';
import { serviceMetrics } from '../../infrastructure/metrics/service-metrics';
import { ProjectionDaemon } from '../../infrastructure/projections/projection-daemon';
import { SqlDatabase } from '../../infrastructure/sql/sql-database';
import { SQL_DATABASE } from '../tokens';
import { answerFrameworkError } from '../../interface/http/errors/api-exception.filter';
import { answerClientError } from '../../interface/http/errors/client-error-answer';
import { setupOpenApi } from '../../interface/http/openapi/openapi-document';
import { servePortal } from '../../interface/portal/portal-page';
import { serveConsole } from '../../interface/console/console-page';
import { refuseNonUtf8Json } from '../../interface/http/validation/json-charset';
import { limitConnectionsPerAddress, slowClientOptions } from '../../interface/http/transport/connection-limits';
import { useExactNumberJsonParser } from '../../interface/http/validation/exact-json-numbers';
import { RequestBodyPipe } from '../../interface/http/validation/request-body.pipe';
import { answerOrderRoutesDirectly } from '../../interface/http/partner/direct-order-routes';
import { PartnerRequestAuthorizer } from '../../interface/shared/partner-request-authorizer';
import { shutdownTracing, tracingOn } from '../../infrastructure/tracing/tracing';
import { continueTraceContextOnlyFromTrustedProxies } from '../../infrastructure/tracing/trusted-trace-context';

function exitOnSignal(app: NestFastifyApplication, afterClose: () => Promise<void>): void {
  let closing = false;
  const close = (): void => {
    if (closing) return;
    closing = true;
    app
      .close()
      .then(afterClose)
      .then(shutdownTracing)
      .then(
        () => process.exit(0),
        (error: unknown) => {
          console.error('shutdown failed:', error);
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', close);
  process.on('SIGINT', close);
}

export async function createApp(config: ServiceConfig, options: AppOptions = {}): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: config.bodyLimitBytes,
    ...slowClientOptions(config),
    trustProxy: config.trustedProxies.length ? config.trustedProxies : false,
    genReqId: requestIdGenerator(config.trustedProxies),
    // Treat "__proto__" and "constructor.prototype" in JSON as malformed input instead of a risk.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // Router refusals (overlong path segment, bad percent-encoding) answer with the Error body too.
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  });
  // Request bodies are JSON only. Fastify's own JSON parser stays (with the poisoning checks above);
  // its text/plain parser and Nest's form parser are left out, so other content types get 415.
  adapter.getInstance().removeContentTypeParser('text/plain');
  useExactNumberJsonParser(adapter.getInstance());
  limitConnectionsPerAddress(adapter.getInstance().server, config.maxConnectionsPerIp, config.trustedProxies);
  if (tracingOn()) continueTraceContextOnlyFromTrustedProxies(adapter.getInstance().server, config.trustedProxies);
  adapter.getInstance().addHook('onRequest', refuseNonUtf8Json);
  observeRequests(adapter.getInstance(), config.logLevel, logDestination(config.logFormat));
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, options), adapter, {
    logger:
      config.logLevel === 'silent'
        ? false
        : new PinoNestLogger(config.logLevel, config.logFormat, [config.adminToken, ...config.apiKeySecrets]),
    bufferLogs: false,
    bodyParser: false,
  });
  app.useGlobalPipes(new RequestBodyPipe());
  answerOrderRoutesDirectly(adapter.getInstance(), app.get(PartnerRequestAuthorizer), app.get(CommandBus));
  serviceMetrics.collectProcessMetrics();
  registerServiceGauges(app.get(ProjectionDaemon), app.get<SqlDatabase>(SQL_DATABASE));
  answerClusterMetricsRequests();
  setupOpenApi(app);
  servePortal(app);
  serveConsole(app);
  if (options.afterClose) exitOnSignal(app, options.afterClose);
  // process.exit after the hooks (not a re-sent signal): the exit code is 0 and the log is flushed.
  else app.enableShutdownHooks(undefined, { useProcessExit: true });
  return app;
}
