import { NDJSON } from './counted-progress';
import { CommandSpec } from './command-spec';

const seg = encodeURIComponent;

export const SERVICE_COMMANDS = {
  verify: {
    usage: '',
    summary:
      'Check ledger invariants; exits 1 and prints the breaches if any. Shows on stderr the events checked so far.',
    positionals: [],
    options: {},
    build: () => ({ method: 'GET', path: '/verify', headers: { accept: NDJSON } }),
    longRunning: true,
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
} satisfies Record<string, CommandSpec>;
