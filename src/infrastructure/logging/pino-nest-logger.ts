import { LoggerService } from '@nestjs/common';
import { hostname } from 'node:os';
import pino, { Logger } from 'pino';
import { ServiceConfig } from '../../config/service-config';
import { withoutSecrets } from '../security/without-secrets';
import { logDestination } from './log-destination';

/** Nest's logger over pino (LOG_LEVEL, LOG_FORMAT); anything that looks like a credential is redacted. */
export class PinoNestLogger implements LoggerService {
  private readonly logger: Logger;

  /** `known`: secret values with no shape of their own (the break-glass token), masked wherever they appear. */
  constructor(
    level: string,
    format: ServiceConfig['logFormat'] = 'json',
    private readonly known: readonly string[] = [],
  ) {
    this.logger = pino(
      {
        level,
        // pid and hostname tell the processes of a scaled-out service apart.
        base: { service: 'partner-service', pid: process.pid, hostname: hostname() },
        redact: {
          paths: [
            'authorization',
            'headers.authorization',
            'req.headers.authorization',
            '*.apiKey',
            '*.api_key',
            '*.webhook_secret',
            '*.secret',
          ],
          censor: '[redacted]',
        },
      },
      logDestination(format),
    );
  }

  log(message: unknown, context?: string): void {
    this.logger.info({ context }, this.text(message));
  }

  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error(
      { context, trace: trace === undefined ? undefined : withoutSecrets(trace, this.known) },
      this.text(message),
    );
  }

  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, this.text(message));
  }

  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, this.text(message));
  }

  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, this.text(message));
  }

  fatal(message: unknown, context?: string): void {
    this.logger.fatal({ context }, this.text(message));
  }

  /** Keys and secrets never reach a log line, even inside an error message. */
  private text(message: unknown): string {
    const raw =
      message instanceof Error ? message.message : typeof message === 'string' ? message : JSON.stringify(message);
    return withoutSecrets(raw, this.known);
  }
}
