import { NDJSON } from './counted-progress';
import { CommandSpec } from './command-spec';

const seg = encodeURIComponent;

/** The last day of a period, both ends included, as the exclusive end the API takes. */
const dayAfter = (day: string | undefined): string | undefined =>
  day === undefined ? undefined : new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** Keyed by "noun verb" as typed; adding a command is one entry here. */
export const COMMANDS: Readonly<Record<string, CommandSpec>> = {
  'partner create': {
    usage: '--name <name> --corridor <IN|BD|SG>',
    summary: 'Onboard a partner; prints partner_id and sandbox_api_key (shown to owners only; null otherwise).',
    positionals: [],
    options: {
      name: { type: 'string', kind: 'text', required: true },
      corridor: { type: 'string', kind: 'corridor', required: true },
    },
    build: (a) => ({
      method: 'POST',
      path: '/partners',
      body: { name: a.value('name'), corridor: a.value('corridor') },
    }),
  },
  'partner kyc': {
    usage: '<partner_id> --status <approved|suspended>',
    summary:
      'Set KYC status; an owner approving prints the live_api_key, otherwise the partner claims it with its sandbox key.',
    positionals: [{ name: 'partner_id', kind: 'id' }],
    options: { status: { type: 'string', kind: 'kyc-status', required: true } },
    build: (a) => ({
      method: 'POST',
      path: `/partners/${seg(a.value('partner_id'))}/kyc`,
      body: { status: a.value('status') },
    }),
  },
  'partner list': {
    usage: '[--search <text>] [--corridor <IN|BD|SG>] [--kyc <pending|approved|suspended>] [--limit <n>]',
    summary: 'List partners, newest first; --search matches part of the name or id.',
    positionals: [],
    options: {
      search: { type: 'string', kind: 'text', required: false },
      corridor: { type: 'string', kind: 'corridor', required: false },
      kyc: { type: 'string', kind: 'text', required: false },
      limit: { type: 'string', kind: 'positive-int', required: false },
    },
    build: (a) => {
      const query = new URLSearchParams();
      for (const [name, option] of [
        ['q', 'search'],
        ['corridor', 'corridor'],
        ['kyc_status', 'kyc'],
        ['limit', 'limit'],
      ] as const) {
        const value = a.optional(option);
        if (value !== undefined) query.set(name, value);
      }
      const search = query.toString();
      return { method: 'GET', path: search === '' ? '/partners' : `/partners?${search}` };
    },
  },
  'partner show': {
    usage: '<partner_id>',
    summary: 'Show a partner.',
    positionals: [{ name: 'partner_id', kind: 'id' }],
    options: {},
    build: (a) => ({ method: 'GET', path: `/partners/${seg(a.value('partner_id'))}` }),
  },
  'key regenerate': {
    usage: '<partner_id> --environment <sandbox|live> [--keep-restricted-keys]',
    summary:
      "Replace the API key of one environment; the old key stops working, and so do the environment's restricted keys unless --keep-restricted-keys (the answer lists them).",
    positionals: [{ name: 'partner_id', kind: 'id' }],
    options: {
      environment: { type: 'string', kind: 'environment', required: true },
      'keep-restricted-keys': { type: 'flag' },
    },
    build: (a) => ({
      method: 'POST',
      path: `/partners/${seg(a.value('partner_id'))}/keys/regenerate`,
      body: {
        environment: a.value('environment'),
        ...(a.flag('keep-restricted-keys') ? { keep_restricted_keys: true } : {}),
      },
    }),
  },
  'key create': {
    usage:
      '<partner_id> --environment <sandbox|live> --label <text> --scope <read_only|transact> [--per-order-max <decimal>] [--daily-max <decimal>] [--rate-limit <n>] [--expires-at <date-time>]',
    summary:
      "Owners: create a restricted key (--expires-at required, and both caps for transact; caps in the wallet currency, daily = rolling 24 hours; --rate-limit: requests per minute of its own, at most the environment's); prints api_key, shown once.",
    positionals: [{ name: 'partner_id', kind: 'id' }],
    options: {
      environment: { type: 'string', kind: 'environment', required: true },
      label: { type: 'string', kind: 'text', required: true },
      scope: { type: 'string', kind: 'key-scope', required: true },
      'per-order-max': { type: 'string', kind: 'amount', required: false },
      'daily-max': { type: 'string', kind: 'amount', required: false },
      'rate-limit': { type: 'string', kind: 'positive-int', required: false },
      'expires-at': { type: 'string', kind: 'date-time', required: false },
    },
    build: (a) => ({
      method: 'POST',
      path: `/partners/${seg(a.value('partner_id'))}/keys`,
      body: {
        environment: a.value('environment'),
        label: a.value('label'),
        scope: a.value('scope'),
        per_order_max: a.optional('per-order-max') ?? null,
        daily_max: a.optional('daily-max') ?? null,
        ...(a.optional('rate-limit') !== undefined ? { rate_limit: Number(a.optional('rate-limit')) } : {}),
        expires_at: a.optional('expires-at') ?? null,
      },
    }),
  },
  'key list': {
    usage: '<partner_id> --environment <sandbox|live>',
    summary:
      'List restricted keys with their caps, expiry, spend and refusals of the last 24 hours, who created each key and when it was last used (the main key too).',
    positionals: [{ name: 'partner_id', kind: 'id' }],
    options: { environment: { type: 'string', kind: 'environment', required: true } },
    build: (a) => ({
      method: 'GET',
      path: `/partners/${seg(a.value('partner_id'))}/keys?environment=${seg(a.value('environment'))}`,
    }),
  },
  'key revoke': {
    usage: '<partner_id> <key_id>',
    summary: 'Revoke a restricted key; it is refused from the answer on.',
    positionals: [
      { name: 'partner_id', kind: 'id' },
      { name: 'key_id', kind: 'id' },
    ],
    options: {},
    build: (a) => ({
      method: 'DELETE',
      path: `/partners/${seg(a.value('partner_id'))}/keys/${seg(a.value('key_id'))}`,
    }),
  },
  'wallet credit': {
    usage: '<partner_id> --environment <sandbox|live> --amount <decimal> --reference <text> [--idempotency-key <key>]',
    summary: 'Credit a wallet, in the corridor currency; with --idempotency-key, running it again credits once.',
    positionals: [{ name: 'partner_id', kind: 'id' }],
    options: {
      environment: { type: 'string', kind: 'environment', required: true },
      amount: { type: 'string', kind: 'amount', required: true },
      reference: { type: 'string', kind: 'text', required: true },
      'idempotency-key': { type: 'string', kind: 'idempotency-key', required: false },
    },
    build: (a) => {
      const key = a.optional('idempotency-key');
      return {
        method: 'POST',
        path: `/partners/${seg(a.value('partner_id'))}/wallet-credits`,
        body: { environment: a.value('environment'), amount: a.value('amount'), reference: a.value('reference') },
        ...(key ? { headers: { 'idempotency-key': key } } : {}),
      };
    },
  },
  'order list': {
    usage:
      '[--held] [--partner <partner_id>] [--environment <sandbox|live>] [--status <status>] [--from <YYYY-MM-DD>] [--to <YYYY-MM-DD>] ' +
      '[--reference <text>] [--phone <number>] [--consumer-number <text>] [--limit <n>]',
    summary:
      'Search orders across partners, newest first (--status: INITIATED, PENDING, DISPUTED, SUCCESS or FAILED; days are UTC, both ends included); ' +
      '--held lists only those awaiting manual resolution, oldest first.',
    positionals: [],
    options: {
      held: { type: 'flag' },
      partner: { type: 'string', kind: 'id', required: false },
      environment: { type: 'string', kind: 'environment', required: false },
      status: { type: 'string', kind: 'text', required: false },
      from: { type: 'string', kind: 'date', required: false },
      to: { type: 'string', kind: 'date', required: false },
      reference: { type: 'string', kind: 'text', required: false },
      phone: { type: 'string', kind: 'text', required: false },
      'consumer-number': { type: 'string', kind: 'text', required: false },
      limit: { type: 'string', kind: 'positive-int', required: false },
    },
    build: (a) => {
      const query = new URLSearchParams();
      const set = (name: string, value: string | undefined) => {
        if (value !== undefined) query.set(name, value);
      };
      if (a.flag('held')) query.set('held', 'true');
      set('partner_id', a.optional('partner'));
      set('environment', a.optional('environment'));
      set('status', a.optional('status'));
      set('created_from', a.optional('from'));
      set('created_to', dayAfter(a.optional('to')));
      set('reference', a.optional('reference'));
      set('phone', a.optional('phone'));
      set('consumer_number', a.optional('consumer-number'));
      set('limit', a.optional('limit'));
      const search = query.toString();
      return { method: 'GET', path: search === '' ? '/orders' : `/orders?${search}` };
    },
  },
  'order show': {
    usage: '<order_id>',
    summary: 'Show an order.',
    positionals: [{ name: 'order_id', kind: 'id' }],
    options: {},
    build: (a) => ({ method: 'GET', path: `/orders/${seg(a.value('order_id'))}` }),
  },
  'order resolve': {
    usage: '<order_id> --outcome <success|failed> --reason <text> [--against-reconciliation] [--against-provider]',
    summary:
      'Settle an order held for manual resolution, after asking its provider (the answer is printed as provider_answer); --against-reconciliation when it contradicts what reconciliation found in the provider’s reports; --against-provider (owners) when it contradicts what the provider answers now.',
    positionals: [{ name: 'order_id', kind: 'id' }],
    options: {
      outcome: { type: 'string', kind: 'outcome', required: true },
      reason: { type: 'string', kind: 'text', required: true },
      'against-reconciliation': { type: 'flag' },
      'against-provider': { type: 'flag' },
    },
    build: (a) => ({
      method: 'POST',
      path: `/orders/${seg(a.value('order_id'))}/resolve`,
      body: {
        outcome: a.value('outcome'),
        reason: a.value('reason'),
        ...(a.flag('against-reconciliation') ? { against_reconciliation: true } : {}),
        ...(a.flag('against-provider') ? { against_provider: true } : {}),
      },
    }),
  },
  'partner configure': {
    usage:
      '<partner_id> --environment <sandbox|live> [--webhook-url <url>] [--ip-allowlist <cidr,...>] [--rate-limit <n>] [--rotate-webhook-secret]',
    summary:
      "Change webhook URL, IP allowlist or rate limit (also the ceiling of the partner's own); an owner sees webhook_secret when one is created or rotated.",
    positionals: [{ name: 'partner_id', kind: 'id' }],
    options: {
      environment: { type: 'string', kind: 'environment', required: true },
      'webhook-url': { type: 'string', kind: 'url', required: false },
      'ip-allowlist': { type: 'string', kind: 'cidr-list', required: false },
      'rate-limit': { type: 'string', kind: 'positive-int', required: false },
      'rotate-webhook-secret': { type: 'flag' },
    },
    build: (a) => {
      const body: Record<string, string | number | boolean | string[] | null> = { environment: a.value('environment') };
      const url = a.optional('webhook-url');
      if (url !== undefined) body.webhook_url = url === '' ? null : url;
      const allowlist = a.optional('ip-allowlist');
      if (allowlist !== undefined) body.ip_allowlist = allowlist.split(',').filter((entry) => entry !== '');
      const rateLimit = a.optional('rate-limit');
      if (rateLimit !== undefined) body.rate_limit = Number(rateLimit);
      if (a.flag('rotate-webhook-secret')) body.rotate_webhook_secret = true;
      return { method: 'PATCH', path: `/partners/${seg(a.value('partner_id'))}/settings`, body };
    },
  },
  'webhook list': {
    usage:
      '[--partner <partner_id>] [--environment <sandbox|live>] [--state <PENDING|RETRYING|SUCCEEDED|FAILED>] [--limit <n>]',
    summary: 'List webhook deliveries with every attempt (status code, latency, error).',
    positionals: [],
    options: {
      partner: { type: 'string', kind: 'id', required: false },
      environment: { type: 'string', kind: 'environment', required: false },
      state: { type: 'string', kind: 'text', required: false },
      limit: { type: 'string', kind: 'positive-int', required: false },
    },
    build: (a) => {
      const query = new URLSearchParams();
      const set = (name: string, option: string) => {
        const value = a.optional(option);
        if (value !== undefined) query.set(name, value);
      };
      set('partner_id', 'partner');
      set('environment', 'environment');
      set('state', 'state');
      set('limit', 'limit');
      const search = query.toString();
      return { method: 'GET', path: search ? `/webhook-deliveries?${search}` : '/webhook-deliveries' };
    },
  },
  'webhook resend': {
    usage: '<delivery_id>',
    summary: 'Send a delivery once more, now, to the partner’s current URL.',
    positionals: [{ name: 'delivery_id', kind: 'id' }],
    options: {},
    build: (a) => ({ method: 'POST', path: `/webhook-deliveries/${seg(a.value('delivery_id'))}/resend` }),
  },
  verify: {
    usage: '',
    summary:
      'Check ledger invariants; exits 1 and prints the breaches if any. Shows on stderr the events checked so far.',
    positionals: [],
    options: {},
    build: () => ({ method: 'GET', path: '/verify', headers: { accept: NDJSON } }),
    longRunning: true,
  },
  'provider status': {
    usage: '',
    summary:
      'The live providers and our float at each (balance, currency, low-float threshold; none where the provider has no balance endpoint), read from the providers now.',
    positionals: [],
    options: {},
    build: () => ({ method: 'GET', path: '/providers/status' }),
  },
  'service overview': {
    usage: '',
    summary:
      "How the service is doing (the console's overview): today and 7 days by corridor, environment and outcome, success rates, settlement time, held orders, refunds, providers' float and breakers, webhook attempts, projection lag.",
    positionals: [],
    options: {},
    build: () => ({ method: 'GET', path: '/overview' }),
  },
  'job backlog': {
    usage: '',
    summary:
      'Open jobs (provider submissions and polls, refunds, webhook deliveries, stuck-order checks) by kind: due, retrying, running, oldest.',
    positionals: [],
    options: {},
    build: () => ({ method: 'GET', path: '/jobs' }),
  },
  'projections status': {
    usage: '',
    summary: "Each projection's version, checkpoint and lag (events not yet applied), and any rebuild in progress.",
    positionals: [],
    options: {},
    build: () => ({ method: 'GET', path: '/projections' }),
  },
  'projections rebuild': {
    usage: '<name>',
    summary:
      'Rebuild a read model from the start of the log beside the serving one, then switch reads over; the service keeps answering. ' +
      'Shows a progress bar on a terminal, JSON progress lines otherwise, then the result.',
    positionals: [{ name: 'name', kind: 'id' }],
    options: {},
    build: (a) => ({ method: 'POST', path: `/projections/${seg(a.value('name'))}/rebuild` }),
    output: 'follow-rebuild',
  },
  'secrets reseal': {
    usage: '',
    summary:
      'Seal every webhook secret again under the newest server secret (the first of API_KEY_SECRETS), so the older ones can be dropped; ' +
      'keys and operator tokens are hashed again at their next use. Prints the counts and any secret no secret of the ring opens.',
    positionals: [],
    options: {},
    build: () => ({ method: 'POST', path: '/secrets/reseal' }),
  },
  'audit wallet': {
    usage: '<partner_id> --environment <sandbox|live> [--from <YYYY-MM-DD>] [--to <YYYY-MM-DD>] --format <jsonl|csv>',
    summary:
      'Every event of a wallet with its actor, order, amount and running balance, streamed as JSON lines or CSV (days are UTC, both ends included).',
    positionals: [{ name: 'partner_id', kind: 'id' }],
    options: {
      environment: { type: 'string', kind: 'environment', required: true },
      from: { type: 'string', kind: 'date', required: false },
      to: { type: 'string', kind: 'date', required: false },
      format: { type: 'string', kind: 'audit-format', required: true },
    },
    build: (a) => {
      const query = new URLSearchParams({ format: a.value('format') });
      const from = a.optional('from');
      if (from !== undefined) query.set('from', from);
      const to = a.optional('to');
      if (to !== undefined) query.set('to', to);
      return {
        method: 'GET',
        path: `/audit/wallets/${seg(a.value('partner_id'))}/${seg(a.value('environment'))}?${query.toString()}`,
      };
    },
    output: 'stream',
  },
  'audit order': {
    usage: '<order_id>',
    summary: "An order's whole history across its wallet and transaction streams, in the order it happened.",
    positionals: [{ name: 'order_id', kind: 'id' }],
    options: {},
    build: (a) => ({ method: 'GET', path: `/audit/orders/${seg(a.value('order_id'))}` }),
  },
  'audit statement': {
    usage: '<partner_id> --environment <sandbox|live> --date <YYYY-MM-DD>',
    summary:
      'Opening balance, debits, refunds, credits and closing balance of a wallet for one UTC day, and whether they add up.',
    positionals: [{ name: 'partner_id', kind: 'id' }],
    options: {
      environment: { type: 'string', kind: 'environment', required: true },
      date: { type: 'string', kind: 'date', required: true },
    },
    build: (a) => ({
      method: 'GET',
      path: `/audit/statements/${seg(a.value('partner_id'))}/${seg(a.value('environment'))}?date=${seg(a.value('date'))}`,
    }),
  },
  'audit report': {
    usage: '<partner_id> --environment <sandbox|live> --from <YYYY-MM-DD> --to <YYYY-MM-DD> [--format <json|html>]',
    summary:
      'A statement over up to 366 UTC days (both ends included), folded from the event log in one pass: totals and each day as `audit statement` gives it. ' +
      '--format html writes a page with a chart of the closing balance and the debits per day (redirect it to a file). ' +
      "Shows on stderr the wallet's events folded so far.",
    positionals: [{ name: 'partner_id', kind: 'id' }],
    options: {
      environment: { type: 'string', kind: 'environment', required: true },
      from: { type: 'string', kind: 'date', required: true },
      to: { type: 'string', kind: 'date', required: true },
      format: { type: 'string', kind: 'report-format', required: false },
    },
    build: (a) => {
      const query = new URLSearchParams({
        from: a.value('from'),
        to: a.value('to'),
        format: a.optional('format') ?? 'json',
      });
      return {
        method: 'GET',
        path: `/audit/reports/${seg(a.value('partner_id'))}/${seg(a.value('environment'))}?${query.toString()}`,
        headers: { accept: NDJSON },
      };
    },
    output: 'stream',
    longRunning: true,
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
  'operator create': {
    usage: '--name <name> --role <owner|operator|finance|engineer> [--expires-in-days <n>]',
    summary:
      'Create a back-office operator token (default 90 days, at most 365); prints operator_id and token, shown once. Owners only.',
    positionals: [],
    options: {
      name: { type: 'string', kind: 'operator-name', required: true },
      role: { type: 'string', kind: 'operator-role', required: true },
      'expires-in-days': { type: 'string', kind: 'positive-int', required: false },
    },
    build: (a) => {
      const days = a.optional('expires-in-days');
      return {
        method: 'POST',
        path: '/operators',
        body: { name: a.value('name'), role: a.value('role'), ...(days ? { expires_in_days: Number(days) } : {}) },
      };
    },
  },
  'operator list': {
    usage: '',
    summary:
      'Every operator token: name, role, status (active, expired, revoked), who created and revoked it and when, and its last use. Owners only.',
    positionals: [],
    options: {},
    build: () => ({ method: 'GET', path: '/operators' }),
  },
  'operator revoke': {
    usage: '<operator_id|name> --reason <text>',
    summary:
      'Revoke one token (by operator_id) or every token of a person (by name); refused from the answer on, on every process. Owners only.',
    positionals: [{ name: 'operator', kind: 'id' }],
    options: { reason: { type: 'string', kind: 'text', required: true } },
    build: (a) => ({
      method: 'POST',
      path: `/operators/${seg(a.value('operator'))}/revoke`,
      body: { reason: a.value('reason') },
    }),
  },
  'operator whoami': {
    usage: '',
    summary: 'The operator the token belongs to: name, role, expiry and what the role may do.',
    positionals: [],
    options: {},
    build: () => ({ method: 'GET', path: '/operators/me' }),
  },
  'audit operator': {
    usage: '<name> [--limit <n>]',
    summary:
      "An operator's back-office actions, newest first (default 100, at most 1000): every event recorded with that name as its actor " +
      '(actions), and the webhook re-sends and rebuilds they started (actions_outside_log); break-glass for what was done with ADMIN_TOKEN.',
    positionals: [{ name: 'name', kind: 'id' }],
    options: { limit: { type: 'string', kind: 'positive-int', required: false } },
    build: (a) => {
      const limit = a.optional('limit');
      return {
        method: 'GET',
        path: `/audit/operators/${seg(a.value('name'))}${limit ? `?limit=${limit}` : ''}`,
      };
    },
  },
};
