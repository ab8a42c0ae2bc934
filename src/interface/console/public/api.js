// @ts-check
// The back office API (/v1/admin) with the operator's token on every call; the token lives in this module
// only (no storage, no cookie). The calls are the portal's (shared-api.js).
import { ApiError, StaleReply, parsed, send } from './shared-api.js';

export { ApiError, StaleReply };

export const API = '/v1/admin';

// The signed-in operator (`me`, as GET /operators/me answers) and a generation changed at every sign-in and
// sign-out: a reply of an earlier generation is dropped, so nothing of one session reaches the next.
/** @type {{ token: string | null, me: { name: string, role: string, break_glass: boolean, permissions: string[] } | null,
 *  generation: number, partner: Record<string, any> | null, order: Record<string, any> | null, creditKey: string | null,
 *  resolution: { outcome: string, reason: string } | null }} */
export const session = {
  token: null,
  me: null,
  generation: 0,
  partner: null,
  order: null,
  creditKey: null,
  resolution: null,
};

/** One call to the back office; the answer as text (JSON parsed by `api`).
 * @param {string} method @param {string} path @param {{ body?: unknown, headers?: Record<string, string> }} [options] */
export const call = (method, path, options = {}) => send(session, session.token, method, API + path, options);

/** @param {string} method @param {string} path @param {{ body?: unknown, headers?: Record<string, string> }} [options] */
export async function api(method, path, options) {
  return parsed(await call(method, path, options));
}

export const seg = encodeURIComponent;

/** Whether the signed-in role may do this (what the page offers; the service decides). @param {string} permission */
export const may = (permission) => session.me?.permissions.includes(permission) ?? false;
