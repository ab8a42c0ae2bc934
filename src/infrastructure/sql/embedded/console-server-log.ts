import { ServiceConfig } from '../../../config/service-config';
import { PinoNestLogger } from '../../logging/pino-nest-logger';
import { EmbeddedServerLog } from './embedded-postgres-server';

/** The embedded server's lifecycle messages as the service's log lines (Nest's logger does not exist yet). */
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
