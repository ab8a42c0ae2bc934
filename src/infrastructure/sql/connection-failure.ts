import { StoreUnavailableError } from '../../application/ports/store-unavailable';

const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOENT',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
/** SQLSTATE class 08 (connection exception) and 57P01–57P03 (the server shutting down or starting). */
const SERVER_GONE = /^(08...|57P0[123])$/;

export function isConnectionFailure(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = 'code' in error ? error.code : undefined;
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || SERVER_GONE.test(code))) return true;
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|connection timeout|timeout expired|Client has encountered a connection error/i.test(
    message,
  );
}

export function translateConnectionFailure(error: unknown): never {
  throw isConnectionFailure(error) ? new StoreUnavailableError(error) : error;
}
