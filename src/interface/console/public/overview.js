// @ts-check
// Overview, the landing page: today and this week from GET /overview, and two charts the service draws as SVG,
// parsed and adopted (no script runs), never set as HTML.
import { api, call } from './api.js';
import { $, cell, when } from './page.js';

const CORRIDORS = /** @type {Record<string, string>} */ ({ INR: 'IN', BDT: 'BD', SGD: 'SG' });
const OUTCOMES = ['placed', 'succeeded', 'failed', 'refunded', 'held'];
/** Above these, a figure is shown as needing attention. */
const ATTENTION = { webhookFailureRate: 0.05, lagSeconds: 10 };

/** A decimal text as the console shows amounts: trailing zeros past two decimals dropped (exact, no arithmetic). @param {string} text */
const amount = (text) => text.replace(/^(-?\d+\.\d\d)0+$/, '$1');

/** @param {number | null | undefined} rate */
const percent = (rate) => (rate === null || rate === undefined ? '—' : `${(rate * 100).toFixed(1)} %`);

/** A settlement-time bucket bound (ms) as people read it; null with settled orders: above the last bound. @param {number | null} ms @param {number} settled */
function duration(ms, settled) {
  if (settled === 0) return '—';
  if (ms === null) return '> 15 min';
  return ms < 60_000 ? `≤ ${ms / 1000} s` : `≤ ${ms / 60_000} min`;
}

/** @param {string} scope "INR sandbox" */
function scopeParts(scope) {
  const [currency, environment] = scope.split(' ');
  return { corridor: `${CORRIDORS[currency] ?? '?'} (${currency})`, environment: environment ?? '' };
}

/** @param {Record<string, { orders: number, amounts: Record<string, string> }> | undefined} outcomes @param {string} outcome */
function outcomeText(outcomes, outcome) {
  const entry = outcomes?.[outcome];
  if (!entry || entry.orders === 0) return '0';
  const amounts = Object.entries(entry.amounts).map(([currency, value]) => `${amount(value)} ${currency}`);
  return `${entry.orders} · ${amounts.join(', ')}`;
}

/** A figure at the top of the page. @param {string} name @param {string} value @param {string} detail @param {boolean} [attention] */
function tile(name, value, detail, attention = false) {
  const box = document.createElement('div');
  box.className = attention ? 'tile attention' : 'tile';
  box.dataset.tile = name;
  box.append(cell('dt', name), cell('dd', value, 'figure'), cell('dd', detail, 'muted'));
  return box;
}

/** @param {Record<string, any>} overview */
function drawTiles(overview) {
  const today = Object.values(overview.periods.today);
  const sum = (/** @type {string} */ outcome) =>
    today.reduce((total, outcomes) => total + (outcomes[outcome]?.orders ?? 0), 0);
  const finals = sum('succeeded') + sum('failed');
  const hooks = overview.webhooks.today;
  const lowFloats = overview.providers.filter((/** @type {any} */ provider) => provider.float?.low === true);
  const openBreakers = overview.providers.filter(
    (/** @type {any} */ provider) => provider.breaker && provider.breaker.state !== 'closed',
  );
  $('overview-tiles').replaceChildren(
    tile('Orders today', String(sum('placed')), `${sum('succeeded')} succeeded, ${sum('failed')} failed`),
    tile(
      'Success rate today',
      finals ? percent(sum('succeeded') / finals) : '—',
      `of ${finals} final outcomes`,
      finals > 0 && sum('failed') > sum('succeeded'),
    ),
    tile('Held now', String(overview.held_now), 'waiting for an operator', overview.held_now > 0),
    tile('Refunds', String(overview.refunds_last_7_days), 'last 7 days'),
    tile(
      'Settlement p50 / p95',
      `${duration(overview.settlement_ms.p50, overview.settlement_ms.settled)} / ${duration(overview.settlement_ms.p95, overview.settlement_ms.settled)}`,
      `${overview.settlement_ms.settled} settled in 7 days`,
    ),
    tile(
      'Webhook failures today',
      percent(hooks.failure_rate),
      `${hooks.retrying + hooks.failed} of ${hooks.attempts} attempts`,
      (hooks.failure_rate ?? 0) > ATTENTION.webhookFailureRate,
    ),
    tile(
      'Projection lag',
      `${overview.projection_lag_seconds} s`,
      'oldest event not yet applied',
      overview.projection_lag_seconds > ATTENTION.lagSeconds,
    ),
    tile(
      'Live providers',
      String(overview.providers.length),
      overview.providers.length === 0
        ? 'sandbox only'
        : `${lowFloats.length} float low, ${openBreakers.length} breaker open`,
      lowFloats.length + openBreakers.length > 0,
    ),
  );
}

/** @param {Record<string, any>} overview */
function drawCorridors(overview) {
  const body = $('overview-corridors');
  body.replaceChildren();
  const scopes = Object.keys(overview.periods.last_7_days).sort();
  for (const scope of scopes) {
    const { corridor, environment } = scopeParts(scope);
    for (const [period, label] of [
      ['today', 'today'],
      ['last_7_days', 'last 7 days'],
    ]) {
      const row = document.createElement('tr');
      row.dataset.scope = scope;
      row.dataset.period = period;
      row.append(cell('td', corridor), cell('td', environment, `env ${environment}`), cell('td', label));
      for (const outcome of OUTCOMES)
        row.append(cell('td', outcomeText(overview.periods[period][scope], outcome), 'number'));
      body.append(row);
    }
  }
  $('overview-corridors-empty').hidden = scopes.length > 0;
}

/** @param {string} bodyId @param {{ name: string, succeeded: number, failed: number, success_rate: number | null }[]} rates */
function drawRates(bodyId, rates) {
  const body = $(bodyId);
  body.replaceChildren();
  for (const rate of rates) {
    const row = document.createElement('tr');
    row.dataset.name = rate.name;
    row.append(
      cell('td', rate.name),
      cell('td', String(rate.succeeded), 'number'),
      cell('td', String(rate.failed), 'number'),
      cell('td', percent(rate.success_rate), 'number'),
    );
    body.append(row);
  }
  if (rates.length === 0) {
    const row = document.createElement('tr');
    const empty = cell('td', 'No final outcome this week.', 'muted');
    empty.setAttribute('colspan', '4');
    row.append(empty);
    body.append(row);
  }
}

/** @param {Record<string, any>} overview */
function drawProviders(overview) {
  const body = $('overview-providers');
  body.replaceChildren();
  for (const provider of overview.providers) {
    const float = provider.float;
    const floatText = float
      ? `${amount(float.balance)} ${float.currency ?? ''}`.trim()
      : provider.balance_endpoint
        ? 'not read yet'
        : 'no balance endpoint';
    const floatState = !float ? '' : float.low === null ? 'no threshold' : float.low ? 'LOW' : 'ok';
    const breaker = provider.breaker;
    const breakerText = !breaker
      ? '—'
      : breaker.state === 'closed'
        ? `closed (${breaker.unknown_in_a_row} unknown in a row)`
        : `${breaker.state}, next probe ${when(breaker.next_probe_at)} UTC`;
    const row = document.createElement('tr');
    row.dataset.provider = provider.provider;
    row.append(
      cell('td', provider.provider),
      cell('td', floatText, 'number'),
      cell('td', float?.low_float_threshold ? amount(float.low_float_threshold) : '—', 'number'),
      cell('td', floatState, float?.low ? 'float low' : 'float'),
      cell('td', float?.read_at ? when(float.read_at) : (provider.float_error ?? '—')),
      cell('td', breakerText, `breaker ${breaker?.state ?? 'none'}`),
    );
    body.append(row);
  }
  $('overview-providers-empty').hidden = overview.providers.length > 0;
  $('overview-breaker-policy').textContent =
    `A breaker opens after ${overview.breaker_policy.threshold} unknown outcomes in a row and probes after ${overview.breaker_policy.cool_down_seconds} s; each service process has its own.`;
}

/** @param {Record<string, any>} overview */
function drawWebhooks(overview) {
  const body = $('overview-webhooks');
  body.replaceChildren();
  for (const [period, label] of [
    ['today', 'today'],
    ['last_7_days', 'last 7 days'],
  ]) {
    const totals = overview.webhooks[period];
    const row = document.createElement('tr');
    row.dataset.period = period;
    row.append(
      cell('td', label),
      cell('td', String(totals.attempts), 'number'),
      cell('td', String(totals.delivered), 'number'),
      cell('td', String(totals.retrying), 'number'),
      cell('td', String(totals.failed), 'number'),
      cell('td', percent(totals.failure_rate), 'number'),
    );
    body.append(row);
  }
}

/** @param {Record<string, any>} overview */
function drawLag(overview) {
  const body = $('overview-projections');
  body.replaceChildren();
  for (const projection of overview.projections) {
    const row = document.createElement('tr');
    row.dataset.projection = projection.name;
    row.append(cell('td', projection.name), cell('td', `${projection.lag_seconds} s`, 'number'));
    body.append(row);
  }
}

const SVG_NS = 'http://www.w3.org/2000/svg';
const DRAWING = new Set(['svg', 'g', 'rect', 'line', 'text', 'title', 'path', 'polyline', 'circle']);

// The service's chart parsed as SVG and adopted keeping only drawing elements and plain attributes (no script,
// link or handler), so even a chart that was not the service's could not act in the console.
/** @param {string} boxId @param {string} text */
function showChart(boxId, text) {
  const parsed = new DOMParser().parseFromString(text, 'image/svg+xml');
  const root = parsed.documentElement;
  if (root.namespaceURI !== SVG_NS || root.localName !== 'svg') throw new Error('the chart is not an SVG image');
  for (const element of [root, ...root.querySelectorAll('*')]) {
    if (element.namespaceURI !== SVG_NS || !DRAWING.has(element.localName)) {
      element.remove();
      continue;
    }
    for (const attribute of [...element.attributes])
      if (/^on|href$/i.test(attribute.name) || /^style$/i.test(attribute.name)) element.removeAttribute(attribute.name);
  }
  $(boxId).replaceChildren(document.adoptNode(root));
}

export async function loadOverview() {
  const [overview, ordersChart, webhooksChart] = await Promise.all([
    api('GET', '/overview'),
    call('GET', '/overview/orders-by-day.svg'),
    call('GET', '/overview/webhooks-by-day.svg'),
  ]);
  $('overview-today').textContent = overview.today;
  $('overview-as-of').textContent =
    `As of ${when(overview.as_of)} UTC. This page read ${overview.rows_read} rows of counters and events, however many orders there are.`;
  drawTiles(overview);
  drawCorridors(overview);
  drawRates('overview-operators', overview.success_rate_by_operator);
  drawRates('overview-provider-rates', overview.success_rate_by_provider);
  drawProviders(overview);
  drawWebhooks(overview);
  drawLag(overview);
  showChart('overview-orders-chart', ordersChart);
  showChart('overview-webhooks-chart', webhooksChart);
}
