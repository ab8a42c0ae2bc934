import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { EventStoreMode, LIVE_PROVIDER_NAMES, LiveProviderName, ReloadlyConfig, ServiceConfig } from './service-config';
import { setuConfig } from './setu-config';
import { TimeOfDay, parseTimeOfDay } from '../domain/reconciliation/reconciliation-schedule';

export class ConfigError extends Error {
  constructor(problems: string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

/** Set by main.ts for the threads and processes it starts: the address of the embedded server it runs. */
export const EMBEDDED_DATABASE_URL = 'EMBEDDED_DATABASE_URL';

const MODES: readonly EventStoreMode[] = ['embedded', 'postgres', 'eventstoredb'];
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export interface LoadConfigOptions {
  /** Accept an earlier release's PGlite DATA_DIR, which the service refuses: the data commands move its history. */
  acceptEarlierDatabase?: boolean;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, options: LoadConfigOptions = {}): ServiceConfig {
  const problems: string[] = [];
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be an integer between ${min} and ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };
  const flag = (name: string): boolean => {
    const raw = env[name];
    if (raw === undefined || raw === '' || raw === 'false') return false;
    if (raw === 'true') return true;
    problems.push(`${name} must be true or false (got "${raw}")`);
    return false;
  };

  const eventStore = (env.EVENT_STORE ?? 'embedded') as EventStoreMode;
  if (!MODES.includes(eventStore))
    problems.push(`EVENT_STORE must be one of ${MODES.join(', ')} (got "${env.EVENT_STORE}")`);
  const dataDir = resolve(env.DATA_DIR ?? './data');
  // Embedded mode: the service's own server, whose address main.ts hands to the processes and threads it starts.
  const databaseUrl = (eventStore === 'embedded' ? env[EMBEDDED_DATABASE_URL] : env.DATABASE_URL) || null;
  if (eventStore !== 'embedded' && !databaseUrl)
    problems.push(`DATABASE_URL is required when EVENT_STORE=${eventStore}`);
  const eventStoreConnectionString = env.EVENTSTORE_CONNECTION_STRING || null;
  if (eventStore === 'eventstoredb' && !eventStoreConnectionString)
    problems.push('EVENTSTORE_CONNECTION_STRING is required when EVENT_STORE=eventstoredb');
  const logLevel = (env.LOG_LEVEL ?? 'info') as ServiceConfig['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const logFormat = env.LOG_FORMAT || (process.stdout.isTTY ? 'pretty' : 'json');
  if (logFormat !== 'json' && logFormat !== 'pretty') problems.push('LOG_FORMAT must be json or pretty');

  const ring = secretRingOf(env, problems);
  let apiKeySecret = ring[0] ?? env.API_KEY_SECRET ?? '';
  if (!apiKeySecret) {
    if (eventStore === 'embedded') apiKeySecret = keptSecret(dataDir, 'api-key-secret');
    else
      problems.push(
        'API_KEY_SECRET is required outside embedded mode (every replica must hash keys with the same secret)',
      );
  } else if (apiKeySecret.length < 32) {
    problems.push('API_KEY_SECRET must be at least 32 characters');
  }
  if (!env.ADMIN_TOKEN && eventStore !== 'embedded') {
    problems.push('ADMIN_TOKEN is required outside embedded mode (every replica must accept the same operator token)');
  }
  const adminToken = env.ADMIN_TOKEN || (problems.length === 0 ? keptSecret(dataDir, 'admin-token') : '');
  if (env.ADMIN_TOKEN !== undefined && env.ADMIN_TOKEN !== '' && env.ADMIN_TOKEN.length < ADMIN_TOKEN_MIN_LENGTH)
    problems.push(
      `ADMIN_TOKEN (the break-glass owner token) must be at least ${ADMIN_TOKEN_MIN_LENGTH} characters, for example openssl rand -hex 24`,
    );

  const config: ServiceConfig = {
    port: integer('PORT', 3000, 0, 65535),
    host: env.HOST ?? '0.0.0.0',
    eventStore,
    dataDir,
    databaseUrl,
    eventStoreConnectionString,
    apiKeySecret,
    apiKeySecrets: ring.length > 0 ? ring : [apiKeySecret],
    adminToken,
    logLevel,
    logFormat: logFormat === 'pretty' ? 'pretty' : 'json',
    stuckOrderAfterMs: integer('STUCK_ORDER_AFTER_SECONDS', 900, 31, 30 * 24 * 3600) * 1000,
    billValidityMs: integer('BILL_VALIDITY_SECONDS', 24 * 3600, 60, 7 * 24 * 3600) * 1000,
    idempotencyWaitMs: integer('IDEMPOTENCY_WAIT_MS', 3000, 0, 30_000),
    projectionPollMs: integer('PROJECTION_POLL_MS', 100, 10, 60_000),
    projectionGatherMs: integer('PROJECTION_GATHER_MS', 60, 0, 1000),
    admissionLeaseMs: integer('ADMISSION_LEASE_MS', 1000, 0, 5000),
    jobPollMs: integer('JOB_POLL_MS', 250, 10, 60_000),
    backgroundWork: 'inline',
    httpProcesses: integer('HTTP_PROCESSES', 1, 1, 64),
    jobConcurrency: integer('JOB_CONCURRENCY', 32, 1, 64),
    walletSnapshotEvery: integer('WALLET_SNAPSHOT_EVERY', 1_000, 1, 10_000_000),
    eventStreamsPerKey: integer('EVENT_STREAMS_PER_KEY', 2, 1, 1_000),
    eventStreamsPerPartner: integer('EVENT_STREAMS_PER_PARTNER', 10, 1, 10_000),
    bodyLimitBytes: integer('BODY_LIMIT_BYTES', 64 * 1024, 1024, 10 * 1024 * 1024),
    jobRetentionDays: integer('JOB_RETENTION_DAYS', 30, 1, 3650),
    webhookAttemptRetentionDays: integer('WEBHOOK_ATTEMPT_RETENTION_DAYS', 30, 1, 3650),
    webhookDeliveryRetentionDays: integer('WEBHOOK_DELIVERY_RETENTION_DAYS', 90, 1, 3650),
    requestTimeoutMs: integer('REQUEST_TIMEOUT_MS', 30_000, 100, 600_000),
    headersTimeoutMs: integer('HEADERS_TIMEOUT_MS', 10_000, 100, 120_000),
    keepAliveTimeoutMs: integer('KEEP_ALIVE_TIMEOUT_MS', 72_000, 100, 600_000),
    maxConnectionsPerIp: integer('MAX_CONNECTIONS_PER_IP', 256, 0, 100_000),
    authFailuresPerMinute: integer('AUTH_FAILURES_PER_MINUTE', 30, 1, 100_000),
    webhookTimeoutMs: integer('WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
    webhookAllowPrivateAddresses: flag('WEBHOOK_ALLOW_PRIVATE_ADDRESSES'),
    // Well below the job lease (5 minutes), so that a hung call never outlives the job that made it.
    providerTimeoutMs: integer('PROVIDER_TIMEOUT_MS', 20_000, 100, 120_000),
    rateLimitStore: 'database',
    redisUrl: null,
    trustedProxies: [],
    liveProvider: null,
    liveProviders: [],
    reloadly: null,
    setu: null,
    reconciliationAt: reconciliationAtOf(env.RECONCILIATION_AT, problems),
  };
  if (config.webhookAttemptRetentionDays > config.webhookDeliveryRetentionDays) {
    problems.push(
      `WEBHOOK_ATTEMPT_RETENTION_DAYS (${config.webhookAttemptRetentionDays}) must not be above WEBHOOK_DELIVERY_RETENTION_DAYS (${config.webhookDeliveryRetentionDays}): attempts go with their delivery`,
    );
  }
  if (config.headersTimeoutMs > config.requestTimeoutMs) {
    problems.push(
      `HEADERS_TIMEOUT_MS (${config.headersTimeoutMs}) must not be above REQUEST_TIMEOUT_MS (${config.requestTimeoutMs})`,
    );
  }
  const backgroundWork = (env.BACKGROUND_WORK || 'inline') as ServiceConfig['backgroundWork'];
  if (backgroundWork !== 'inline' && backgroundWork !== 'thread')
    problems.push(`BACKGROUND_WORK must be inline or thread (got "${env.BACKGROUND_WORK}")`);
  config.backgroundWork = backgroundWork;
  if (
    !options.acceptEarlierDatabase &&
    eventStore === 'embedded' &&
    existsSync(join(dataDir, 'pglite')) &&
    !existsSync(join(dataDir, 'postgres'))
  ) {
    problems.push(
      `DATA_DIR (${dataDir}) holds a database of an earlier release (${join(dataDir, 'pglite')}), which this release no longer opens; ` +
        `move its history into the embedded PostgreSQL server with: npm run --silent cli -- data import ${join(dataDir, 'pglite')}`,
    );
  }
  const rateLimitStore = (env.RATE_LIMIT_STORE ?? 'database') as ServiceConfig['rateLimitStore'];
  if (rateLimitStore !== 'database' && rateLimitStore !== 'redis')
    problems.push('RATE_LIMIT_STORE must be database or redis');
  if (rateLimitStore === 'redis' && !env.REDIS_URL) problems.push('REDIS_URL is required when RATE_LIMIT_STORE=redis');
  config.rateLimitStore = rateLimitStore;
  config.redisUrl = env.REDIS_URL || null;
  config.trustedProxies = (env.TRUSTED_PROXIES ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of config.trustedProxies.filter((candidate) => !isProxyEntry(candidate))) {
    problems.push(
      `TRUSTED_PROXIES: "${entry}" is not an IP address, a CIDR range, or one of ${PROXY_NAMES.join(', ')} (list the proxies' addresses, not a hop count)`,
    );
  }
  const liveProviders = liveProvidersOf(env, problems);
  config.liveProviders = liveProviders;
  config.liveProvider = liveProviders[0] ?? null;
  if (liveProviders.includes('reloadly')) config.reloadly = reloadlyConfig(env, problems);
  if (liveProviders.includes('setu')) config.setu = setuConfig(env, problems);
  if (problems.length) throw new ConfigError(problems);
  return config;
}

/** Daily reconciliation runs at this time of day in each provider's report zone by default (decision 0123). */
const RECONCILIATION_AT_DEFAULT = '02:30';

function reconciliationAtOf(raw: string | undefined, problems: string[]): TimeOfDay | null {
  const text = raw || RECONCILIATION_AT_DEFAULT;
  if (text === 'off') return null;
  const at = parseTimeOfDay(text);
  if (!at)
    problems.push(
      `RECONCILIATION_AT must be a time of day HH:MM (00:00 to 23:59) in each provider's report time zone, or off (got "${text}")`,
    );
  return at;
}

function liveProvidersOf(env: NodeJS.ProcessEnv, problems: string[]): LiveProviderName[] {
  const one = env.LIVE_PROVIDER || null;
  const many = env.LIVE_PROVIDERS || null;
  const known = LIVE_PROVIDER_NAMES.join(', ');
  if (one !== null && many !== null) {
    problems.push(
      'LIVE_PROVIDER and LIVE_PROVIDERS are both set: use LIVE_PROVIDERS alone (LIVE_PROVIDER is its one-provider form)',
    );
    return [];
  }
  if (one !== null) {
    if ((LIVE_PROVIDER_NAMES as readonly string[]).includes(one)) return [one as LiveProviderName];
    problems.push(`LIVE_PROVIDER must be one of ${known} or unset (got "${one}")`);
    return [];
  }
  if (many === null) return [];
  const names = many.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(LIVE_PROVIDER_NAMES as readonly string[]).includes(name));
  if (unknown.length > 0) {
    problems.push(`LIVE_PROVIDERS must list providers among ${known}, separated by commas (got "${many}")`);
    return [];
  }
  if (new Set(names).size !== names.length) problems.push(`LIVE_PROVIDERS names a provider twice (got "${many}")`);
  return [...new Set(names)] as LiveProviderName[];
}

/** Reloadly's production hosts; its sandbox hosts (topups-sandbox, utilities-sandbox) serve a provider-side test account. */
const RELOADLY_DEFAULT_URLS = {
  RELOADLY_AUTH_URL: 'https://auth.reloadly.com',
  RELOADLY_TOPUPS_URL: 'https://topups.reloadly.com',
  RELOADLY_UTILITIES_URL: 'https://utilities.reloadly.com',
} as const;

function reloadlyConfig(env: NodeJS.ProcessEnv, problems: string[]): ReloadlyConfig {
  const required = (name: string): string => {
    const value = env[name] ?? '';
    if (!value) problems.push(`${name} is required when LIVE_PROVIDER=reloadly`);
    return value;
  };
  const url = (name: keyof typeof RELOADLY_DEFAULT_URLS): string => {
    const value = env[name] || RELOADLY_DEFAULT_URLS[name];
    let parsed: URL | null;
    try {
      parsed = new URL(value);
    } catch {
      parsed = null;
    }
    if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:'))
      problems.push(`${name} must be an http(s) URL (got "${value}")`);
    return value.replace(/\/+$/, '');
  };
  const threshold = env.RELOADLY_LOW_FLOAT_THRESHOLD || null;
  if (threshold !== null && !/^\d{1,15}(\.\d{1,8})?$/.test(threshold))
    problems.push(`RELOADLY_LOW_FLOAT_THRESHOLD must be a decimal amount such as 500.00 (got "${threshold}")`);
  // Reloadly's documented examples date transactions 4 to 5 hours behind the UTC times beside them (docs/decisions/0043-reloadly-report-times.md).
  const reportTimeZone = env.RELOADLY_REPORT_TIME_ZONE || 'America/New_York';
  if (!isTimeZoneName(reportTimeZone))
    problems.push(
      `RELOADLY_REPORT_TIME_ZONE must be an IANA time zone such as America/New_York or UTC (got "${reportTimeZone}")`,
    );
  return {
    clientId: required('RELOADLY_CLIENT_ID'),
    clientSecret: required('RELOADLY_CLIENT_SECRET'),
    authUrl: url('RELOADLY_AUTH_URL'),
    topupsUrl: url('RELOADLY_TOPUPS_URL'),
    utilitiesUrl: url('RELOADLY_UTILITIES_URL'),
    lowFloatThreshold: threshold,
    reportTimeZone,
  };
}

function isTimeZoneName(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'] as const;

/** What Fastify's trustProxy list understands; anything else would fail (or, like "1", be misread) at startup. */
function isProxyEntry(entry: string): boolean {
  if ((PROXY_NAMES as readonly string[]).includes(entry)) return true;
  const [address, prefix, extra] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/** The break-glass token opens everything: as long as the key-hashing secret (docs/decisions/0131-break-glass-token-hardening.md). */
const ADMIN_TOKEN_MIN_LENGTH = 32;

/** A secret generated at first start and kept (mode 600) in the data folder. */
function keptSecret(dataDir: string, name: string): string {
  const file = join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  try {
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw error;
  }
}

// API_KEY_SECRETS: the server secrets, newest first (decision 0142); API_KEY_SECRET alone is a ring of one.
// Set both only if API_KEY_SECRET is the newest.
function secretRingOf(env: NodeJS.ProcessEnv, problems: string[]): string[] {
  const ring = (env.API_KEY_SECRETS ?? '')
    .split(',')
    .map((secret) => secret.trim())
    .filter((secret) => secret !== '');
  if (ring.length === 0) return [];
  if (ring.some((secret) => secret.length < 32))
    problems.push('each secret of API_KEY_SECRETS must be at least 32 characters');
  if (new Set(ring).size !== ring.length) problems.push('API_KEY_SECRETS lists a secret twice');
  if (env.API_KEY_SECRET && env.API_KEY_SECRET !== ring[0])
    problems.push('API_KEY_SECRET, when set beside API_KEY_SECRETS, must be its first (newest) secret');
  return ring;
}
