// @ts-check
// Calling the service from a page: the page's credential as bearer token, nothing cached, no cookies, a refusal
// as an ApiError, and a reply arriving after its session ended dropped. Each page's api.js holds its session.

/** A reply that arrived after its session ended: nothing to show. */
export class StaleReply extends Error {}

export class ApiError extends Error {
  /** @param {number} status @param {string} code @param {string | null} detail
   * @param {any} [body] the refusal's parsed body @param {string | null} [retryAfter] its Retry-After header */
  constructor(status, code, detail, body = null, retryAfter = null) {
    super(detail ? `${code}: ${detail}` : code);
    this.status = status;
    this.code = code;
    this.body = body;
    this.retryAfter = retryAfter;
  }
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
  return new ApiError(response.status, code, detail, parsed, response.headers.get('retry-after'));
}

// One call for the session signed in now; the answer as text. Throws an ApiError when refused or unanswered, and
// a StaleReply when the session's generation changed meanwhile, so nothing of one session reaches the next.
/** @param {{ generation: number }} session @param {string | null} credential @param {string} method @param {string} url
 * @param {{ body?: unknown, headers?: Record<string, string> }} [options] */
export async function send(session, credential, method, url, options = {}) {
  const generation = session.generation;
  const current = () => {
    if (generation !== session.generation) throw new StaleReply();
  };
  /** @type {Record<string, string>} */
  const headers = { Authorization: `Bearer ${credential}`, ...options.headers };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(url, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      cache: 'no-store',
      credentials: 'omit',
    });
  } catch {
    current();
    throw new ApiError(0, 'network_error', 'the service did not answer');
  }
  const text = await response.text().catch(() => '');
  current();
  if (!response.ok) throw refusal(response, text);
  return text;
}

/** An answer's JSON (null for an empty answer). @param {string} text */
export const parsed = (text) => (text ? JSON.parse(text) : null);
