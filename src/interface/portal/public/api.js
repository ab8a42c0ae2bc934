// @ts-check
// The partner API (/v1/partner) with the signed-in key on every call; the key lives in this module only
// (no storage, no cookie). The calls are the console's (shared-api.js).
import { parsed, send } from './shared-api.js';

export { ApiError, StaleReply, refusal } from './shared-api.js';

export const API = '/v1/partner';

// The signed-in key and a generation changed at every sign-in and sign-out (a reply of an earlier one is dropped);
// `available` and `threshold` are the balance and low-balance threshold on screen, for the banner.
/** @type {{ key: string | null, generation: number, filters: URLSearchParams, cursors: (string | null)[],
 *  nextCursor: string | null, webhookUrl: string | null, currency: string | null, available: string | null,
 *  threshold: string | null }} */
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
