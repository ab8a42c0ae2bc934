import { CommandSpec } from './command-spec';

const seg = encodeURIComponent;

export const OPERATOR_COMMANDS = {
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
} satisfies Record<string, CommandSpec>;
