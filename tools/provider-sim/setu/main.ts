import { startSetuSimulator } from './setu-simulator';

/**
 * npm run provider-sim -- setu [--port 4020] [--host 127.0.0.1] [--seed 1] [--partner-id 1001]
 *   [--token-ttl-seconds 600] [--settle-after-ms 30000] [--hang-ms 120000] [--list-lag-ms 300000]
 *   [--fetch-pending-reads 1] [--pending-for-ms 86400000] [--retry-after-seconds 30]
 * Each flag can also be given as an environment variable: PORT, HOST, SEED, PARTNER_ID,
 * TOKEN_TTL_SECONDS, SETTLE_AFTER_MS, HANG_MS, LIST_LAG_MS, FETCH_PENDING_READS, PENDING_FOR_MS,
 * RETRY_AFTER_SECONDS (flags win).
 */
function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
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

export async function runSetuSimulator(): Promise<void> {
  const simulator = await startSetuSimulator({
    port: integer('port') ?? 4020,
    host: option('host') ?? '127.0.0.1',
    seed: integer('seed'),
    partnerId: option('partner-id'),
    tokenTtlSeconds: integer('token-ttl-seconds'),
    settleAfterMs: integer('settle-after-ms'),
    hangMs: integer('hang-ms'),
    listLagMs: integer('list-lag-ms'),
    fetchPendingReads: integer('fetch-pending-reads'),
    pendingForMs: integer('pending-for-ms'),
    retryAfterSeconds: integer('retry-after-seconds'),
  });
  console.log(`provider simulator (Setu BBPS BillPay v2 protocol) listening on ${simulator.url}`);
  console.log(
    `  LIVE_PROVIDER=setu SETU_URL=${simulator.url} SETU_CLIENT_ID=any SETU_CLIENT_SECRET=any SETU_PARTNER_ID=${simulator.partnerId}`,
  );
  console.log(
    '  SETU_AGENT_ID=AX01AI06512391457204 SETU_AGENT_IP=127.0.0.1 SETU_AGENT_MAC=48-4D-7E-CB-DB-6F SETU_AGENT_MOBILE=9876543210',
  );
  const stop = () => void simulator.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
