import { NestFactory } from '@nestjs/core';
import { parentPort } from 'node:worker_threads';
import { BackgroundModule } from './background.module';
import { loadConfig } from '../../config/load-config';
import { PinoNestLogger } from '../../infrastructure/logging/pino-nest-logger';
import { BackgroundProcessing } from '../../infrastructure/processing/background-processing';
import { FromBackground, ToBackground } from '../../infrastructure/processing/background-thread';
import { serviceMetrics } from '../../infrastructure/metrics/service-metrics';
import { shutdownTracing } from '../../infrastructure/tracing/tracing';

async function run(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('background-main runs as a worker thread of main.ts');
  const config = loadConfig();
  const app = await NestFactory.createApplicationContext(BackgroundModule.forRoot(config), {
    logger:
      config.logLevel === 'silent'
        ? false
        : new PinoNestLogger(config.logLevel, config.logFormat, [config.adminToken, ...config.apiKeySecrets]),
  });
  await app.init();
  const background = app.get(BackgroundProcessing);
  port.on('message', (message: ToBackground) => {
    if (typeof message === 'object') {
      void serviceMetrics.registry
        .getMetricsAsJSON()
        .then((metrics) =>
          port.postMessage({ metricsAnswer: message.metricsRequest, metrics } satisfies FromBackground),
        );
    } else if (message === 'appended') background.nudge();
    else if (message === 'stop') {
      void app
        .close()
        .then(shutdownTracing)
        .finally(() => {
          port.postMessage('stopped' satisfies FromBackground);
          port.close();
        });
    }
  });
  port.postMessage('ready' satisfies FromBackground);
}

export function runBackgroundThread(): void {
  run().catch((error: unknown) => {
    // Thrown out of the thread: the service process sees it as the thread's error and stops.
    setImmediate(() => {
      throw error;
    });
  });
}
