// @ts-check
// What every console page shares: the helpers shared with the portal (shared-page.js), the wording of a refused
// token, confirmations, the box that shows a key or secret once.
import { $, reportFailures, whenCredentialRefused } from './shared-page.js';

export {
  $,
  cell,
  fail,
  formQuery,
  guarded,
  notify,
  onClick,
  onSubmit,
  pickable,
  selectTab,
  when,
  describeFailure as describe,
} from './shared-page.js';

reportFailures({ refused: 'The operator token was refused (invalid_admin_token). Sign in again.' });

/** What a refused token (401) does: set by the console to sign out. */
export const whenTokenRefused = whenCredentialRefused;

/** @param {string} question */
export const confirmed = (question) => window.confirm(question);

/** @param {string} title @param {string} value */
export function showSecret(title, value) {
  $('secret-title').textContent = title;
  $('secret-value').textContent = value;
  $('secret').hidden = false;
}
