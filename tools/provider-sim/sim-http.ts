import { IncomingMessage, ServerResponse } from 'node:http';

/** The HTTP plumbing of the simulator: answers, Reloadly-shaped error bodies, pages and times. */
export type Json = Record<string, unknown> | unknown[];

export interface Answer {
  status: number;
  body: Json | string;
  /** Hold the connection this long and then drop it without an answer. */
  hangMs?: number;
  delayMs?: number;
  headers?: Record<string, string>;
  /** The body's type when it is not JSON (an HTML page a proxy or a maintenance screen gives). */
  contentType?: string;
}

/** A JSON number from a decimal literal (JSON.parse of the literal is exactly the number a client reads). */
export const num = (text: string): number => JSON.parse(text) as number;

/** A page as Reloadly's reports give it; a size above `maxSize` is cut to it (the client must follow totalPages). */
export function page(
  items: Json[],
  query: URLSearchParams,
  maxSize = 200,
): {
  content: Json[];
  totalElements: number;
  totalPages: number;
  size: number;
  number: number;
  numberOfElements: number;
} {
  const size = Math.min(Math.max(Number(query.get('size') ?? 200) || 200, 1), maxSize);
  const number = Math.max(Number(query.get('page') ?? 1) || 1, 1);
  const content = items.slice((number - 1) * size, number * size);
  return {
    content,
    totalElements: items.length,
    totalPages: Math.ceil(items.length / size),
    size,
    number,
    numberOfElements: content.length,
  };
}

/** "yyyy-MM-dd HH:mm:ss" in UTC (error time stamps, balance updates; transaction dates are in the report's zone). */
export function stamp(at: number = Date.now()): string {
  return new Date(at).toISOString().slice(0, 19).replace('T', ' ');
}

export const ok = (body: Json): Answer => ({ status: 200, body });
export const error = (status: number, errorCode: string | null, message: string, path: string): Answer => ({
  status,
  body: { timeStamp: stamp(), message, path, errorCode, infoLink: null, details: [] },
});
/** A 200 that is not the API's JSON: the page a proxy or a maintenance screen answers with. */
export const htmlPage = (): Answer => ({
  status: 200,
  contentType: 'text/html; charset=utf-8',
  body: '<!DOCTYPE html><html><head><title>Reloadly</title></head><body><h1>We will be back shortly</h1></body></html>',
});
export const notFound = (path: string): Answer => ({
  status: 404,
  body: { timeStamp: stamp(), status: 404, error: 'Not Found', message: 'No message available', path },
});

export function parse(raw: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', () => resolve(''));
  });
}

export function reply(response: ServerResponse, answer: Answer): void {
  if (response.destroyed) return;
  const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
  response.writeHead(answer.status, {
    'content-type': answer.contentType ?? 'application/json',
    ...answer.headers,
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}
