// @ts-check
// What every part of the portal shares: finding elements, writing values as text (never as HTML),
// notices and failures.
import { ApiError, StaleReply } from './api.js';

/** What a refused key (401) does: set by the portal to sign out. @type {(why: string) => void} */
let onKeyRefused = () => undefined;

/** @param {(why: string) => void} handler */
export function whenKeyRefused(handler) {
  onKeyRefused = handler;
}

/** @param {string} id @returns {any} */
export const $ = (id) => document.getElementById(id);

/** @param {unknown} error */
export function describe(error) {
  if (error instanceof ApiError) {
    if (error.code === 'rate_limit_exceeded')
      return `Rate limit reached for this key; try again in ${error.retryAfter ?? 'a few'} seconds.`;
    return error.message;
  }
  return 'Something went wrong in the page; reload it.';
}

/** @param {string} text */
export function notify(text) {
  $('failure').hidden = true;
  $('notice').textContent = text;
  $('notice').hidden = false;
}

/** @param {unknown} error */
export function fail(error) {
  if (error instanceof StaleReply) return;
  if (error instanceof ApiError && error.status === 401) {
    onKeyRefused(
      'The key was refused (invalid_api_key): it may have been regenerated, revoked or expired. Sign in again.',
    );
    return;
  }
  $('notice').hidden = true;
  $('failure').textContent = describe(error);
  $('failure').hidden = false;
}

/** @param {() => Promise<void>} work */
export const guarded = (work) => () => {
  work().catch(fail);
};

/** @param {string} tag @param {string} text @param {string} [className] */
export function cell(tag, text, className) {
  const element = document.createElement(tag);
  element.textContent = text;
  if (className) element.className = className;
  return element;
}

/** @param {string | null | undefined} iso */
export const when = (iso) =>
  iso
    ? iso
        .replace('T', ' ')
        .replace(/\.\d+Z$/, 'Z')
        .replace('Z', '')
    : '';

/** @param {string} id @param {() => void | Promise<void>} handler */
export function onSubmit(id, handler) {
  $(id).addEventListener('submit', (/** @type {Event} */ event) => {
    event.preventDefault();
    guarded(async () => handler())();
  });
}

/** @param {string} id @param {() => void | Promise<void>} handler */
export function onClick(id, handler) {
  $(id).addEventListener(
    'click',
    guarded(async () => handler()),
  );
}

/** A decimal text as a count of ten-thousandths, for exact comparisons (no float). @param {string} text */
export function scaled(text) {
  const match = /^(-?)(\d+)(?:\.(\d{1,4}))?$/.exec(text.trim());
  if (!match) return null;
  const value = BigInt(match[2]) * 10000n + BigInt((match[3] ?? '').padEnd(4, '0'));
  return match[1] ? -value : value;
}
