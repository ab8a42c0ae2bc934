import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, ServiceError } from '../../../application/shared/service-error';
import { STATUS_OF_ERROR } from './status-of-error';
import { RateLimitExceeded } from '../../../application/access/authorize-partner-request';
import { SourceThrottled } from '../../../application/access/source-throttle';
import { rateLimitHeaders } from '../../shared/rate-limit-headers';
import { StoreUnavailableError } from '../../../application/ports/store-unavailable';

export interface ErrorBody {
  error: ErrorCode;
  detail: string | null;
  [extra: string]: unknown;
}

/** Every failure leaves as the Error body; unknown ones are logged with the request id and answered 500 bare. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    answerException(exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>(), this.logger);
  }
}

/** Sends the Error body an exception is answered with, and logs what an operator should see. */
export function answerException(
  exception: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
  logger: Logger,
): void {
  const { status, body, headers } = errorAnswer(exception, request);
  // A refusal the service chose (a provider that is down: 503) is an expected answer: one line, no stack.
  if (exception instanceof StoreUnavailableError)
    logger.warn(`${request.method} ${request.url} [${request.id}] answered ${status}: ${exception.message}`);
  else if (exception instanceof ServiceError && exception.code === 'provider_unavailable')
    logger.warn(
      `${request.method} ${request.url} [${request.id}] answered ${status} ${exception.code}: ${exception.detail ?? ''}`,
    );
  else if (status >= 500)
    logger.error(`${request.method} ${request.url} [${request.id}] failed: ${describe(exception)}`);
  for (const [name, value] of Object.entries(headers)) void reply.header(name, value);
  void reply.status(status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(body));
}

/** The status, Error body and headers an exception is answered with (also for answers streamed as NDJSON). */
export function errorAnswer(
  exception: unknown,
  request: FastifyRequest,
): { status: number; body: ErrorBody; headers: Record<string, string> } {
  if (exception instanceof ServiceError) {
    const detailed = exception instanceof ServiceErrorWithHeaders ? exception : null;
    return {
      status: STATUS_OF_ERROR[exception.code],
      body: { error: exception.code, detail: exception.detail, ...(detailed?.extraBody ?? {}) },
      headers:
        exception instanceof RateLimitExceeded
          ? rateLimitHeaders(exception.decision)
          : exception instanceof SourceThrottled
            ? { 'Retry-After': String(exception.retryAfterSeconds) }
            : (detailed?.headers ?? {}),
    };
  }
  if (exception instanceof StoreUnavailableError) {
    return {
      status: 503,
      body: {
        error: 'service_unavailable',
        detail:
          'the service cannot reach its database at the moment; retry with the same Idempotency-Key (a retry is never applied twice)',
      },
      headers: { 'retry-after': '1' },
    };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (status === 404)
      return {
        status,
        body: { error: 'not_found', detail: `no route ${request.method} ${request.url.split('?')[0]}` },
        headers: {},
      };
    if (status === 405)
      return {
        status,
        body: { error: 'not_found', detail: `method ${request.method} is not allowed here` },
        headers: {},
      };
    // Fastify's own refusals (body parser, content type, size) reach here as HttpExceptions.
    if (status < 500) return fastifyClientError(status, exception.message);
  }
  const fastifyStatus = statusOfFastifyError(exception);
  if (fastifyStatus !== null && fastifyStatus < 500)
    return fastifyClientError(fastifyStatus, messageOf(exception), codeOf(exception));
  return {
    status: 500,
    body: {
      error: 'internal_error',
      detail: `an internal error occurred (request ${request.id}); it is safe to retry with the same Idempotency-Key`,
    },
    headers: {},
  };
}

/** A refusal that also sets response headers (Retry-After and the like) or adds fields to the Error body. */
export class ServiceErrorWithHeaders extends ServiceError {
  constructor(
    code: ErrorCode,
    detail: string,
    readonly headers: Record<string, string>,
    readonly extraBody: Record<string, unknown> = {},
  ) {
    super(code, detail);
  }
}

function statusOfFastifyError(exception: unknown): number | null {
  if (typeof exception === 'object' && exception !== null && 'statusCode' in exception) {
    const status = exception.statusCode;
    return typeof status === 'number' ? status : null;
  }
  return null;
}

/** Errors raised by Fastify before a route runs: bad JSON, too large, wrong content type. */
function fastifyClientError(
  status: number,
  message: string,
  code = '',
): { status: number; body: ErrorBody; headers: Record<string, string> } {
  if (status === 413 || code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return {
      status: 413,
      body: { error: 'validation_failed', detail: 'body: the request body is too large' },
      headers: {},
    };
  }
  if (status === 415 || code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return {
      status: 415,
      body: { error: 'validation_failed', detail: 'Content-Type: must be application/json' },
      headers: {},
    };
  }
  if (code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH' || message.includes('did not match Content-Length')) {
    // Fastify decodes the body as UTF-8 and then finds fewer characters than the bytes announced.
    return {
      status: 400,
      body: { error: 'validation_failed', detail: 'body: not valid UTF-8, or shorter than its Content-Length' },
      headers: {},
    };
  }
  if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || message.startsWith('Body cannot be empty')) {
    return {
      status: 400,
      body: { error: 'validation_failed', detail: 'body: a JSON object is required' },
      headers: {},
    };
  }
  if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || message.includes('JSON')) {
    return {
      status: 400,
      body: {
        error: 'validation_failed',
        detail:
          'body: malformed JSON (NaN, Infinity and "__proto__" or "constructor.prototype" keys are refused as well)',
      },
      headers: {},
    };
  }
  return { status, body: { error: 'validation_failed', detail: message }, headers: {} };
}

/** Refusals of Fastify's router, before any route or filter runs (the adapter's `frameworkErrors`), as Error bodies. */
export function answerFrameworkError(
  error: { code?: string; message: string },
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  let status = 400;
  let body: ErrorBody = { error: 'validation_failed', detail: 'path: not a valid URL (malformed percent-encoding)' };
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    status = 404;
    body = {
      error: 'not_found',
      detail: 'no such resource: a path segment is longer than any identifier of this interface',
    };
  } else if (error.code !== 'FST_ERR_BAD_URL') {
    status = 500;
    body = {
      error: 'internal_error',
      detail: `an internal error occurred (request ${request.id}); it is safe to retry with the same Idempotency-Key`,
    };
  }
  void reply.status(status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(body));
}

function messageOf(exception: unknown): string {
  return exception instanceof Error ? exception.message : String(exception);
}

function codeOf(exception: unknown): string {
  return typeof exception === 'object' && exception !== null && 'code' in exception ? String(exception.code) : '';
}

function describe(exception: unknown): string {
  return exception instanceof Error
    ? `${exception.name}: ${exception.message}\n${exception.stack ?? ''}`
    : String(exception);
}
