import { randomBytes } from 'node:crypto';
import { Answer } from '../sim-http';

/** Answers in Setu's envelope: `{data, success, traceId}` or `{error: {code, message}, success: false, traceId}`. */
export const traceId = (): string => randomBytes(10).toString('hex').toUpperCase();

export const setuOk = (data: unknown): Answer => ({ status: 200, body: { data, success: true, traceId: traceId() } });

export const setuError = (status: number, code: string, message: string): Answer => ({
  status,
  body: { error: { code, message }, success: false, traceId: traceId() },
});

/** The date part of a timestamp as written (we are sent India's +05:30). */
export const dateOfTimestamp = (timestamp: string): string => timestamp.slice(0, 10);

/** India's date and date-time for an instant. */
export function istDate(at: number): string {
  return new Date(at + 330 * 60_000).toISOString().slice(0, 10);
}

/** A page of a list: `limit` items after the `after` cursor (an item id), and the path of the next page. */
export function pageOf<T>(
  items: readonly T[],
  idOf: (item: T) => string,
  query: URLSearchParams,
  path: string,
): { page: T[]; nextPage: string | null } {
  const limit = Math.min(Math.max(Number(query.get('limit') ?? 250) || 250, 1), 1000);
  const after = query.get('after');
  const start = after ? items.findIndex((item) => idOf(item) === after) + 1 : 0;
  const page = items.slice(start, start + limit);
  if (start + limit >= items.length || page.length === 0) return { page, nextPage: null };
  const next = new URLSearchParams(query);
  next.set('after', idOf(page[page.length - 1]));
  return { page, nextPage: `${path}?${next.toString()}` };
}
