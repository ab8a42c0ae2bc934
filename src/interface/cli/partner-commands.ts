import { CommandSpec } from './command-spec';

const seg = encodeURIComponent;

export const PARTNER_COMMANDS = {
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
} satisfies Record<string, CommandSpec>;
