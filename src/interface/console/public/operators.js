// @ts-check
// Operators: for owners, every operator token with create and revoke; for every role, what one operator did
// (their events, and the re-sends and rebuilds they started), newest first.
import { api, may, seg } from './api.js';
import { $, cell, confirmed, guarded, notify, onSubmit, showSecret, when } from './page.js';

export async function loadOperators() {
  if (!may('manage_operators')) return;
  const listed = await api('GET', '/operators');
  const body = $('operators');
  body.replaceChildren();
  for (const operator of [...listed.operators].reverse()) {
    const row = document.createElement('tr');
    row.dataset.operatorId = operator.operator_id;
    const name = cell('button', operator.name, 'link');
    name.setAttribute('type', 'button');
    name.title = `What ${operator.name} did`;
    name.addEventListener(
      'click',
      guarded(() => showAudit(operator.name)),
    );
    const action = document.createElement('td');
    if (operator.status === 'active') {
      const revoke = cell('button', 'Revoke');
      revoke.setAttribute('type', 'button');
      revoke.addEventListener(
        'click',
        guarded(() => revokeToken(operator)),
      );
      action.append(revoke);
    } else if (operator.revoke_reason) action.append(cell('span', operator.revoke_reason, 'muted'));
    const named = document.createElement('td');
    named.append(name);
    row.append(
      named,
      cell('td', operator.role),
      cell('td', operator.status, `state ${operator.status}`),
      cell('td', when(operator.created_at)),
      cell('td', operator.created_by),
      cell('td', when(operator.expires_at)),
      cell('td', operator.last_used_at ? when(operator.last_used_at) : 'never', 'last-used'),
      action,
    );
    body.append(row);
  }
}

/** @param {{ operator_id: string, name: string }} operator */
async function revokeToken(operator) {
  const reason = window.prompt(`Why is the token of ${operator.name} (${operator.operator_id}) revoked?`);
  if (reason === null) return;
  if (reason.trim() === '') {
    notify('Nothing revoked: a revocation needs a reason.');
    return;
  }
  await api('POST', `/operators/${seg(operator.operator_id)}/revoke`, { body: { reason: reason.trim() } });
  notify(`The token of ${operator.name} is revoked; it is refused from now on.`);
  await loadOperators();
}

async function createToken() {
  const form = /** @type {HTMLFormElement} */ ($('operator-create'));
  const field = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name)).value;
  const name = field('name').trim();
  const role = field('role');
  const days = Number(field('expires_in_days'));
  if (!confirmed(`Create a ${role} token for ${name}, valid ${days} days?`)) return;
  const created = await api('POST', '/operators', { body: { name, role, expires_in_days: days } });
  showSecret(
    `Operator token of ${created.name} (${created.role}, until ${when(created.expires_at)} UTC).`,
    created.token,
  );
  form.reset();
  await loadOperators();
}

/** Both lists of the audit as one timeline, newest first. @param {Record<string, any>} audit */
function timeline(audit) {
  const events = audit.actions.map((/** @type {Record<string, any>} */ action) => ({
    at: action.occurred_at,
    what: action.event_type,
    kind: 'event',
    partner: action.partner_id,
    environment: action.environment,
    subject: action.stream_id,
    detail: action.data,
  }));
  const others = audit.actions_outside_log.map((/** @type {Record<string, any>} */ action) => ({
    at: action.occurred_at,
    what: action.action,
    kind: 'outside the log',
    partner: action.partner_id,
    environment: action.environment,
    subject: action.subject,
    detail: { ...action.detail, role: action.role, operator_id: action.operator_id },
  }));
  return [...events, ...others].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
}

/** One `field: value` line per field; a nested value as JSON. @param {Record<string, unknown>} detail */
const detailLines = (detail) =>
  Object.entries(detail)
    .map(([field, value]) => `${field}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('\n');

/** @param {number} count @param {string} one @param {string} many */
const counted = (count, one, many) => `${count} ${count === 1 ? one : many}`;

/** @param {string} name */
async function showAudit(name) {
  /** @type {HTMLInputElement} */ ($('operator-audit-form').elements.namedItem('name')).value = name;
  const audit = await api('GET', `/audit/operators/${seg(name)}`);
  const entries = timeline(audit);
  $('operator-audit-summary').textContent =
    `${audit.operator}: ${counted(audit.actions.length, 'event', 'events')} and ` +
    `${counted(audit.actions_outside_log.length, 'action', 'actions')} outside the log (the latest 100 of each).`;
  const body = $('operator-audit');
  body.replaceChildren();
  for (const entry of entries) {
    const row = document.createElement('tr');
    row.dataset.kind = entry.kind;
    row.append(
      cell('td', when(entry.at)),
      cell('td', entry.what),
      cell('td', entry.kind, 'muted'),
      cell('td', entry.partner ?? ''),
      cell('td', entry.environment ?? ''),
      cell('td', entry.subject, 'mono'),
      cell('td', detailLines(entry.detail), 'mono audit-detail'),
    );
    body.append(row);
  }
  $('operator-audit-empty').hidden = entries.length > 0;
}

export function wireOperators() {
  onSubmit('operator-create', createToken);
  onSubmit('operator-audit-form', () =>
    showAudit(/** @type {HTMLInputElement} */ ($('operator-audit-form').elements.namedItem('name')).value.trim()),
  );
}
