// @ts-check
// What portal and console share on the page: elements, values as text (never HTML), times, notices, failures,
// filter forms, rows that open details, tabs. Each page.js words a refused credential with `reportFailures`.
import { ApiError, StaleReply } from './shared-api.js';

/** @param {string} id @returns {any} */
export const $ = (id) => document.getElementById(id);

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

/** @param {string} text */
export function notify(text) {
  $('failure').hidden = true;
  $('notice').textContent = text;
  $('notice').hidden = false;
}

/** A refusal's code and detail; anything else is the page's own fault. @param {unknown} error */
export function describeFailure(error) {
  if (error instanceof ApiError) return error.message;
  return 'Something went wrong in the page; reload it.';
}

/** How failures are worded and what a refused credential (401) does: set by the page's page.js and its main module. */
const failures = {
  describe: describeFailure,
  refused: '',
  /** @type {(why: string) => void} */
  onRefused: () => undefined,
};

// How this page words failures: `refused` when a refused credential (401) signs it out; `describe` any other
// (default: the refusal's code and detail).
/** @param {{ refused: string, describe?: (error: unknown) => string }} wording */
export function reportFailures(wording) {
  failures.refused = wording.refused;
  failures.describe = wording.describe ?? describeFailure;
}

/** What a refused credential does: set by the page to sign out. @param {(why: string) => void} handler */
export function whenCredentialRefused(handler) {
  failures.onRefused = handler;
}

/** @param {unknown} error */
export function fail(error) {
  if (error instanceof StaleReply) return;
  if (error instanceof ApiError && error.status === 401) {
    failures.onRefused(failures.refused);
    return;
  }
  $('notice').hidden = true;
  $('failure').textContent = failures.describe(error);
  $('failure').hidden = false;
}

/** @param {() => Promise<void>} work */
export const guarded = (work) => () => {
  work().catch(fail);
};

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

/** A row (class `pick`, focusable) that opens its details on a click or Enter. @param {HTMLElement} row @param {() => Promise<void>} open */
export function pickable(row, open) {
  row.addEventListener('click', guarded(open));
  row.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') guarded(open)();
  });
}

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

/** Shows the tab named (`data-tab`) and its panel (`tab-<name>`), and hides the others. @param {string} name */
export function selectTab(name) {
  for (const tab of document.querySelectorAll('[role=tab]')) {
    const chosen = /** @type {HTMLElement} */ (tab).dataset.tab === name;
    tab.setAttribute('aria-selected', String(chosen));
    $(`tab-${/** @type {HTMLElement} */ (tab).dataset.tab}`).hidden = !chosen;
  }
}
