import { NDJSON } from './counted-progress';
import { CommandSpec } from './command-spec';

const seg = encodeURIComponent;

export const AUDIT_COMMANDS = {
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
} satisfies Record<string, CommandSpec>;
