import { ServiceConfig } from '../../../config/service-config';
import { PinoNestLogger } from '../../logging/pino-nest-logger';
import { EmbeddedServerLog } from './embedded-postgres-server';

export function consoleServerLog(
  level: ServiceConfig['logLevel'],
  format: ServiceConfig['logFormat'],
): EmbeddedServerLog {
  const logger = new PinoNestLogger(level, format);
  const context = 'EmbeddedPostgres';
  return {
    info: (message) => logger.log(message, context),
    warn: (message) => logger.warn(message, context),
    error: (message) => logger.error(message, undefined, context),
  };
}
