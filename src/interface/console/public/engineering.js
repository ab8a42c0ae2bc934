// @ts-check
// Engineering: projections with version, checkpoint and lag; a rebuild started and followed to
// its end; the job backlog.
import { StaleReply, api, seg, session } from './api.js';
import { $, cell, confirmed, guarded, notify, when } from './page.js';

const REBUILD_POLL_MS = 500;

export async function loadProjections() {
  const status = await api('GET', '/projections');
  const body = $('projections');
  body.replaceChildren();
  for (const projection of status.projections) {
    const row = document.createElement('tr');
    row.dataset.projection = projection.name;
    const checkpoint =
      projection.checkpoint === null
        ? '—'
        : typeof projection.checkpoint === 'object'
          ? JSON.stringify(projection.checkpoint)
          : String(projection.checkpoint);
    const action = document.createElement('td');
    if (projection.rebuildable && !projection.rebuilding) {
      const button = cell('button', 'Rebuild');
      button.setAttribute('type', 'button');
      button.dataset.needs = 'run_projections';
      button.addEventListener(
        'click',
        guarded(() => startRebuild(projection.name)),
      );
      action.append(button);
    } else if (projection.rebuilding)
      action.append(cell('span', `rebuilding (${projection.rebuilding.phase})`, 'muted'));
    row.append(
      cell('td', projection.name),
      cell('td', projection.group ?? ''),
      cell('td', String(projection.version), 'number'),
      cell('td', checkpoint, 'mono'),
      cell('td', String(projection.lag_events ?? '—'), 'number'),
      cell('td', when(projection.rebuilt_at)),
      action,
    );
    body.append(row);
  }
}

/** @param {string} name */
async function startRebuild(name) {
  if (
    !confirmed(
      `Rebuild ${name}? A new copy is built from the event log while the current one keeps answering, then they swap.`,
    )
  )
    return;
  const rebuild = await api('POST', `/projections/${seg(name)}/rebuild`);
  notify(`Rebuild of ${name} started.`);
  await watchRebuild(rebuild);
}

/** Follows a rebuild until it ends; a sign-out in between ends the watch (its next reply is stale). @param {Record<string, any>} rebuild */
async function watchRebuild(rebuild) {
  for (let current = rebuild; ;) {
    $('rebuild').hidden = false;
    $('rebuild-projection').textContent = current.projection;
    $('rebuild-id').textContent = current.rebuild_id;
    const total = Number(current.events_total) || 0;
    const done = Number(current.events_applied) || 0;
    $('rebuild-progress').max = Math.max(total, 1);
    $('rebuild-progress').value = current.state === 'completed' ? Math.max(total, 1) : done;
    const eta =
      current.eta_seconds === null || current.eta_seconds === undefined ? '' : `, about ${current.eta_seconds} s left`;
    $('rebuild-state').textContent =
      current.state === 'running'
        ? `${current.phase}: ${done} of ${total} events${eta}`
        : current.state === 'completed'
          ? `Completed at ${when(current.finished_at)} UTC: version ${current.version_before} → ${current.version_after}, ${done} events.`
          : `Failed: ${current.error ?? 'see the service log'}`;
    $('rebuild-state').className = current.state === 'failed' ? 'error' : current.state === 'completed' ? 'notice' : '';
    await loadProjections();
    if (current.state !== 'running') return;
    const generation = session.generation;
    await new Promise((resolve) => setTimeout(resolve, REBUILD_POLL_MS));
    if (generation !== session.generation) throw new StaleReply();
    current = await api('GET', `/projections/rebuilds/${seg(current.rebuild_id)}`);
  }
}

export async function loadJobs() {
  const backlog = await api('GET', '/jobs');
  $('jobs-summary').textContent = `${backlog.open} open, ${backlog.due} due, as of ${when(backlog.as_of)} UTC.`;
  const body = $('jobs');
  body.replaceChildren();
  for (const line of backlog.kinds) {
    const row = document.createElement('tr');
    row.append(
      cell('td', line.kind),
      cell('td', String(line.open), 'number'),
      cell('td', String(line.due), 'number'),
      cell('td', String(line.retrying), 'number'),
      cell('td', String(line.running), 'number'),
      cell('td', when(line.oldest_due_at)),
      cell('td', line.last_error ?? ''),
    );
    body.append(row);
  }
}
