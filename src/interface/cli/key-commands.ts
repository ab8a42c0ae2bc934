import { CommandSpec } from './command-spec';

const seg = encodeURIComponent;

export const KEY_COMMANDS = {
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
} satisfies Record<string, CommandSpec>;
