import { runSetuSimulator } from './setu/main';
import { startSimulator } from './simulator';

/**
 * npm run provider-sim -- [--port 4010] [--host 127.0.0.1] [--seed 1] [--balance 1000.00] [--currency USD]
 *   [--token-ttl-seconds 3600] [--token-max-age-seconds N] [--settle-after-ms 30000] [--long-settle-after-ms 21600000]
 *   [--report-lag-ms 300000] [--slow-ms 3000] [--hang-ms 120000] [--invisible-ms 60000] [--recent-recharge-ms 120000]
 *   [--retry-after-seconds 1] [--report-time-zone America/New_York] [--max-page-size 50]
 *   [--requested-amount-in account]
 * Each flag can also be given as an environment variable: PORT, HOST, SEED, BALANCE, CURRENCY,
 * TOKEN_TTL_SECONDS, TOKEN_MAX_AGE_SECONDS, SETTLE_AFTER_MS, LONG_SETTLE_AFTER_MS, REPORT_LAG_MS, SLOW_MS,
 * HANG_MS, INVISIBLE_MS, RECENT_RECHARGE_MS, RETRY_AFTER_SECONDS, REPORT_TIME_ZONE, MAX_PAGE_SIZE,
 * REQUESTED_AMOUNT_IN (flags win).
 */
function option(name: string): string | undefined {
  const flag = `--${name}`;
  const index = process.argv.indexOf(flag);
  if (index >= 0) return process.argv[index + 1];
  return process.env[name.toUpperCase().replace(/-/g, '_')];
}

function integer(name: string): number | undefined {
  const text = option(name);
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) {
    console.error(`--${name} must be a whole number (got "${text}")`);
    process.exit(2);
  }
  return Number(text);
}

function requestedAmountIn(): 'account' | 'local' | undefined {
  const text = option('requested-amount-in');
  if (text === undefined || text === 'account' || text === 'local') return text;
  console.error(`--requested-amount-in must be account or local (got "${text}")`);
  process.exit(2);
}

async function main(): Promise<void> {
  const simulator = await startSimulator({
    port: integer('port') ?? 4010,
    host: option('host') ?? '127.0.0.1',
    seed: integer('seed'),
    balance: option('balance'),
    currency: option('currency'),
    tokenTtlSeconds: integer('token-ttl-seconds'),
    tokenMaxAgeSeconds: integer('token-max-age-seconds'),
    settleAfterMs: integer('settle-after-ms'),
    longSettleAfterMs: integer('long-settle-after-ms'),
    reportLagMs: integer('report-lag-ms'),
    slowMs: integer('slow-ms'),
    hangMs: integer('hang-ms'),
    invisibleMs: integer('invisible-ms'),
    recentRechargeMs: integer('recent-recharge-ms'),
    retryAfterSeconds: integer('retry-after-seconds'),
    reportTimeZone: option('report-time-zone'),
    maxPageSize: integer('max-page-size'),
    requestedAmountIn: requestedAmountIn(),
  });
  console.log(`provider simulator (Reloadly protocol) listening on ${simulator.url}`);
  console.log(`  LIVE_PROVIDER=reloadly RELOADLY_CLIENT_ID=any RELOADLY_CLIENT_SECRET=any`);
  console.log(
    `  RELOADLY_AUTH_URL=${simulator.authUrl} RELOADLY_TOPUPS_URL=${simulator.topupsUrl} RELOADLY_UTILITIES_URL=${simulator.utilitiesUrl}`,
  );
  const stop = () => void simulator.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

// `npm run provider-sim -- setu`: Setu's BBPS BillPay protocol instead (tools/provider-sim/setu/main.ts).
void (process.argv[2] === 'setu' ? runSetuSimulator() : main());
