import { IncomingMessage, ServerResponse } from 'node:http';

/** The HTTP plumbing of the simulator: answers, Reloadly-shaped error bodies, pages and times. */
export type Json = Record<string, unknown> | unknown[];

export interface Answer {
  status: number;
  body: Json | string;
  /** Hold the connection this long and then drop it without an answer. */
  hangMs?: number;
  delayMs?: number;
}

/** A JSON number from a decimal literal (JSON.parse of the literal is exactly the number a client reads). */
export const num = (text: string): number => JSON.parse(text) as number;

export function page(items: unknown[], query: URLSearchParams): Json {
  const size = Math.max(Number(query.get('size') ?? 200) || 200, 1);
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

/** "yyyy-MM-dd HH:mm:ss" in UTC. */
export function stamp(at: number = Date.now()): string {
  return new Date(at).toISOString().slice(0, 19).replace('T', ' ');
}

export function dateOf(text: string | null): number | null {
  if (!text) return null;
  const at = Date.parse(`${text.replace(' ', 'T')}Z`);
  return Number.isNaN(at) ? null : at;
}

export const ok = (body: Json): Answer => ({ status: 200, body });
export const error = (status: number, errorCode: string | null, message: string, path: string): Answer => ({
  status,
  body: { timeStamp: stamp(), message, path, errorCode, infoLink: null, details: [] },
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
  response.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}
