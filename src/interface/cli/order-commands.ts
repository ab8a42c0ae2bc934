import { CommandSpec } from './command-spec';

const seg = encodeURIComponent;

/** The last day of a period, both ends included, as the exclusive end the API takes. */
const dayAfter = (day: string | undefined): string | undefined =>
  day === undefined ? undefined : new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

export const ORDER_COMMANDS = {
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
} satisfies Record<string, CommandSpec>;
