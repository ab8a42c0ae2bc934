// @ts-check
// The partner API (/v1/partner) as the portal calls it: the key the partner signed in with on every
// call, and the session it belongs to. The key lives in this module only (no storage, no cookie); the
// calls themselves are the ones the operator console makes (shared-api.js).
import { parsed, send } from './shared-api.js';

export { ApiError, StaleReply, refusal } from './shared-api.js';

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

/** @param {string} method @param {string} path @param {unknown} [body] */
export async function api(method, path, body) {
  return parsed(await send(session, session.key, method, API + path, { body }));
}

export const seg = encodeURIComponent;
