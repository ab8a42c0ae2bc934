import { STATUS_CODES } from 'node:http';
import { Socket } from 'node:net';

// Requests Node's HTTP parser refuses before Fastify sees them (headers over 16 KiB, not HTTP, never
// finished) get the Error body too, not Fastify's default `{error, message, statusCode}`.
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, detail] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'headers: larger than the 16 KiB this server accepts']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request: not received in time']
        : [400, 'request: not a well-formed HTTP request'];
  const body = JSON.stringify({ error: 'validation_failed', detail });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
