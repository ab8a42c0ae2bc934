// @ts-check
// The partner API (/v1/partner) as the portal calls it: the key the partner signed in with on every
// call, and the session it belongs to. The key lives in this module only (no storage, no cookie).

export const API = '/v1/partner';

/**
 * The signed-in key, and a generation that changes at every sign-in and sign-out: a reply to a
 * request of an earlier generation is dropped, so one partner's answer never lands on the next
 * partner's screen. `available` and `threshold` are the balance and the low-balance threshold on
 * screen (decimal texts), for the low-balance banner.
 * @type {{ key: string | null, generation: number, filters: URLSearchParams, cursors: (string | null)[],
 *          nextCursor: string | null, webhookUrl: string | null, currency: string | null,
 *          available: string | null, threshold: string | null }}
 */
export const session = {
  key: null,
  generation: 0,
  filters: new URLSearchParams(),
  cursors: [null],
  nextCursor: null,
  webhookUrl: null,
  currency: null,
  available: null,
  threshold: null,
};

/** A reply that arrived after its session ended: nothing to show. */
export class StaleReply extends Error {}

export class ApiError extends Error {
  /** @param {number} status @param {string} code @param {string | null} detail @param {string | null} retryAfter */
  constructor(status, code, detail, retryAfter) {
    super(detail ? `${code}: ${detail}` : code);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

/** Throws StaleReply when the session that made a request has ended. @param {number} generation */
export function stillCurrent(generation) {
  if (generation !== session.generation) throw new StaleReply();
}

/** The Error body of a refused answer as an ApiError. @param {Response} response @param {string} text */
export function refusal(response, text) {
  let parsed = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  const code = parsed && typeof parsed.error === 'string' ? parsed.error : `http_${response.status}`;
  const detail = parsed && typeof parsed.detail === 'string' ? parsed.detail : null;
  return new ApiError(response.status, code, detail, response.headers.get('retry-after'));
}

/** @param {string} method @param {string} path @param {unknown} [body] */
export async function api(method, path, body) {
  const generation = session.generation;
  /** @type {Record<string, string>} */
  const headers = { Authorization: `Bearer ${session.key}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(API + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
      credentials: 'omit',
    });
  } catch {
    stillCurrent(generation);
    throw new ApiError(0, 'network_error', 'the service did not answer', null);
  }
  const text = await response.text().catch(() => '');
  stillCurrent(generation);
  if (!response.ok) throw refusal(response, text);
  return text ? JSON.parse(text) : null;
}

export const seg = encodeURIComponent;
