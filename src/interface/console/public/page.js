// @ts-check
// What every page of the console shares: finding elements, writing values as text (never as HTML),
// notices and failures, confirmations, the box that shows a key or secret once.
import { ApiError, StaleReply } from './api.js';

/** What a refused token (401) does: set by the console to sign out. @type {(why: string) => void} */
let onTokenRefused = () => undefined;

/** @param {(why: string) => void} handler */
export function whenTokenRefused(handler) {
  onTokenRefused = handler;
}

/** @param {string} id @returns {any} */
export const $ = (id) => document.getElementById(id);

/** @param {unknown} error */
export function describe(error) {
  if (error instanceof ApiError) return error.message;
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
    onTokenRefused('The operator token was refused (invalid_admin_token). Sign in again.');
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

/** @param {string} question */
export const confirmed = (question) => window.confirm(question);

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

/** The form's non-empty fields as query parameters. @param {string} formId @param {string[]} [dayAfter] fields whose last day is inclusive */
export function formQuery(formId, dayAfter = []) {
  const params = new URLSearchParams();
  for (const [name, value] of new FormData(/** @type {HTMLFormElement} */ ($(formId)))) {
    if (typeof value !== 'string' || value.trim() === '') continue;
    const next = dayAfter.includes(name)
      ? new Date(Date.parse(`${value}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
      : null;
    params.set(name, next ?? value.trim());
  }
  return params;
}

/** @param {string} title @param {string} value */
export function showSecret(title, value) {
  $('secret-title').textContent = title;
  $('secret-value').textContent = value;
  $('secret').hidden = false;
}

/** @param {HTMLElement} row @param {() => Promise<void>} open */
export function pickable(row, open) {
  row.addEventListener('click', guarded(open));
  row.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') guarded(open)();
  });
}

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
