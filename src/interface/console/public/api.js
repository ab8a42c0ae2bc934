// @ts-check
// The back office API (/v1/admin) as the console calls it: the operator's token on every call, and
// the session it belongs to. The token lives in this module only (no storage, no cookie).

export const API = '/v1/admin';

/**
 * The signed-in operator (`me`: name, role and permissions, as GET /operators/me answers), and a
 * generation that changes at every sign-in and sign-out: a reply to a request of an earlier
 * generation is dropped, so nothing of one session reaches the next.
 * @type {{ token: string | null, me: { name: string, role: string, break_glass: boolean, permissions: string[] } | null,
 *          generation: number, partner: Record<string, any> | null, order: Record<string, any> | null,
 *          creditKey: string | null, resolution: { outcome: string, reason: string } | null }}
 */
export const session = {
  token: null,
  me: null,
  generation: 0,
  partner: null,
  order: null,
  creditKey: null,
  resolution: null,
};

/** A reply that arrived after its session ended: nothing to show. */
export class StaleReply extends Error {}

export class ApiError extends Error {
  /** @param {number} status @param {string} code @param {string | null} detail @param {any} body */
  constructor(status, code, detail, body) {
    super(detail ? `${code}: ${detail}` : code);
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

/**
 * One call to the back office; the answer as text (JSON parsed by `api`).
 * @param {string} method @param {string} path @param {{ body?: unknown, headers?: Record<string, string> }} [options]
 */
export async function call(method, path, options = {}) {
  const generation = session.generation;
  const current = () => {
    if (generation !== session.generation) throw new StaleReply();
  };
  /** @type {Record<string, string>} */
  const headers = {
    Authorization: `Bearer ${session.token}`,
    ...options.headers,
  };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(API + path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      cache: 'no-store',
      credentials: 'omit',
    });
  } catch {
    current();
    throw new ApiError(0, 'network_error', 'the service did not answer', null);
  }
  const text = await response.text().catch(() => '');
  current();
  if (!response.ok) {
    let parsed = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    const code = parsed && typeof parsed.error === 'string' ? parsed.error : `http_${response.status}`;
    const detail = parsed && typeof parsed.detail === 'string' ? parsed.detail : null;
    throw new ApiError(response.status, code, detail, parsed);
  }
  return text;
}

/** @param {string} method @param {string} path @param {{ body?: unknown, headers?: Record<string, string> }} [options] */
export async function api(method, path, options) {
  const text = await call(method, path, options);
  return text ? JSON.parse(text) : null;
}

export const seg = encodeURIComponent;

/** Whether the signed-in role may do this (what the page offers; the service decides). @param {string} permission */
export const may = (permission) => session.me?.permissions.includes(permission) ?? false;
