import { CommandSpec } from './command-spec';

const seg = encodeURIComponent;

export const PROVIDER_COMMANDS = {
  'provider status': {
    usage: '',
    summary:
      'The live providers and our float at each (balance, currency, low-float threshold; none where the provider has no balance endpoint), read from the providers now.',
    positionals: [],
    options: {},
    build: () => ({ method: 'GET', path: '/providers/status' }),
  },
  'route list': {
    usage: '',
    summary:
      'Every operator and biller with its live route (provider and upstream id), or none, and who changed it last and when.',
    positionals: [],
    options: {},
    build: () => ({ method: 'GET', path: '/routes' }),
  },
  'route history': {
    usage: '',
    summary: 'Every route change, oldest first, with the operator who made it.',
    positionals: [],
    options: {},
    build: () => ({ method: 'GET', path: '/routes/history' }),
  },
  'route set': {
    usage: '<operator|biller> <id> --provider <name> --upstream-id <id>',
    summary: "Route one operator or biller in live to a provider, under the provider's own id.",
    positionals: [
      { name: 'kind', kind: 'product-kind' },
      { name: 'id', kind: 'positive-int' },
    ],
    options: {
      provider: { type: 'string', kind: 'provider', required: true },
      'upstream-id': { type: 'string', kind: 'id', required: true },
    },
    build: (a) => ({
      method: 'POST',
      path: '/routes',
      body: {
        kind: a.value('kind'),
        id: Number(a.value('id')),
        provider: a.value('provider'),
        upstream_id: a.value('upstream-id'),
      },
    }),
  },
  'route remove': {
    usage: '<operator|biller> <id> --reason <text>',
    summary:
      'Take an operator or biller off live: its new orders answer 503 provider_unavailable; placed orders keep their route.',
    positionals: [
      { name: 'kind', kind: 'product-kind' },
      { name: 'id', kind: 'positive-int' },
    ],
    options: { reason: { type: 'string', kind: 'text', required: true } },
    build: (a) => ({
      method: 'POST',
      path: '/routes/remove',
      body: { kind: a.value('kind'), id: Number(a.value('id')), reason: a.value('reason') },
    }),
  },
  'provider sync': {
    usage: '<provider> [--apply]',
    summary:
      "Read the provider's operator and biller catalogs for IN, BD and SG (setu: India's BBPS billers) and print the proposed routes by country and name; --apply records them.",
    positionals: [{ name: 'provider', kind: 'provider' }],
    options: { apply: { type: 'flag' } },
    build: (a) => ({
      method: 'POST',
      path: `/providers/${seg(a.value('provider'))}/sync`,
      body: { apply: a.flag('apply') },
    }),
  },
  'provider breakers': {
    usage: '',
    summary:
      "Each live provider's circuit breaker in the process that answers: closed, open or probing, and when it probes next.",
    positionals: [],
    options: {},
    build: () => ({ method: 'GET', path: '/providers/breakers' }),
  },
  'provider reconcile': {
    usage: '--date <YYYY-MM-DD> [--provider <name>] [--format <json|html>]',
    summary:
      "Match one UTC day of the provider's transaction report with our live orders: matched, amount mismatch, provider-only, ours-only, status disagreement. " +
      'Each mismatch of a day that is over is recorded on its order (audit order), and the run is listed (provider runs). --format html writes a page (redirect it to a file).',
    positionals: [],
    options: {
      date: { type: 'string', kind: 'date', required: true },
      provider: { type: 'string', kind: 'provider', required: false },
      format: { type: 'string', kind: 'report-format', required: false },
    },
    build: (a) => {
      const provider = a.optional('provider');
      return {
        method: 'POST',
        path: `/providers/reconciliation?${new URLSearchParams({ format: a.optional('format') ?? 'json' }).toString()}`,
        body: { date: a.value('date'), ...(provider === undefined ? {} : { provider }) },
      };
    },
    output: 'stream',
  },
  'provider runs': {
    usage: '[--provider <name>] [--limit <n>]',
    summary:
      "The latest reconciliation runs, newest first: the daily runs at RECONCILIATION_AT, days judged again while they had orders in doubt, and operators' runs; each with its counts, what it recorded, and why it failed if it did.",
    positionals: [],
    options: {
      provider: { type: 'string', kind: 'provider', required: false },
      limit: { type: 'string', kind: 'positive-int', required: false },
    },
    build: (a) => {
      const query = new URLSearchParams();
      const provider = a.optional('provider');
      const limit = a.optional('limit');
      if (provider !== undefined) query.set('provider', provider);
      if (limit !== undefined) query.set('limit', limit);
      const suffix = query.size > 0 ? `?${query.toString()}` : '';
      return { method: 'GET', path: `/providers/reconciliation/runs${suffix}` };
    },
  },
} satisfies Record<string, CommandSpec>;
