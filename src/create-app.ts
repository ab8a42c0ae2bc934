import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomUUID } from 'node:crypto';
import { AppModule, AppOptions } from './app.module';
import { ServiceConfig } from './config/service-config';
import { RequestBodyPipe } from './interface/http/validation/request-body.pipe';

/** Builds the HTTP application (not yet listening). Used by main.ts and by the tests. */
export async function createApp(config: ServiceConfig, options: AppOptions = {}): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: config.bodyLimitBytes,
    genReqId: (request: { headers: Record<string, string | string[] | undefined> }) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
    // Treat "__proto__" and "constructor.prototype" in JSON as malformed input instead of a risk.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, options), adapter, {
    logger: config.logLevel === 'silent' ? false : undefined,
    bufferLogs: false,
  });
  app.useGlobalPipes(new RequestBodyPipe());
  app.enableShutdownHooks();
  return app;
}
