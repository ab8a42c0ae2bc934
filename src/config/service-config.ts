import { TimeOfDay } from '../domain/reconciliation/reconciliation-schedule';

/** Everything the service reads from its environment, validated once at start. */
export type EventStoreMode = 'embedded' | 'postgres' | 'eventstoredb';

/** The live provider's connection (LIVE_PROVIDER=reloadly). The secret is never logged. */
export interface ReloadlyConfig {
  clientId: string;
  clientSecret: string;
  authUrl: string;
  topupsUrl: string;
  utilitiesUrl: string;
  /** A decimal text in the account's currency; null: no low-float warning. */
  lowFloatThreshold: string | null;
  /** The IANA time zone of the wall-clock times in Reloadly's transaction reports (RELOADLY_REPORT_TIME_ZONE). */
  reportTimeZone: string;
}

/** Setu's BBPS BillPay (v2) connection, when `setu` is a live provider. The secret is never logged. */
export interface SetuConfig {
  /** Base URL (production https://coudc.setu.co, sandbox https://sandbox-coudc.setu.co); tokens from `<url>/api/v2/auth/token`. */
  url: string;
  clientId: string;
  clientSecret: string;
  /** Sent as X-PARTNER-ID on every call. */
  partnerId: string;
  /** The BBPS agent id and what NPCI has on record for it (channel INT: the server's IPv4 and MAC address). */
  agentId: string;
  agentIp: string;
  agentMac: string;
  /** The agent's registered mobile: the customer mobile of a fetch whose consumer number is not one, and the wallet's in accountInfo. */
  agentMobile: string;
  /** The remitter's name on payments (NPCI requires one). */
  remitterName: string;
}

/** The live providers this service can run, by the name routes use. */
export const LIVE_PROVIDER_NAMES = ['reloadly', 'setu'] as const;
export type LiveProviderName = (typeof LIVE_PROVIDER_NAMES)[number];

/** The token under which the composition provides the ServiceConfig (for what reads a setting at request time). */
export const SERVICE_CONFIG = Symbol('ServiceConfig');

export interface ServiceConfig {
  port: number;
  host: string;
  eventStore: EventStoreMode;
  /** Embedded mode's data folder (its PostgreSQL cluster); also where a generated admin token and key secret are kept. */
  dataDir: string;
  /** In embedded mode, the server the service started itself (set once it answers, handed to threads and processes). */
  databaseUrl: string | null;
  eventStoreConnectionString: string | null;
  apiKeySecret: string;
  /** Newest first (decision 0142): what any of them made is accepted; new keys, tokens and seals use the first. */
  apiKeySecrets: string[];
  adminToken: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** LOG_FORMAT: JSON lines, or readable lines for a person at a terminal (the default there). */
  logFormat: 'json' | 'pretty';
  stuckOrderAfterMs: number;
  billValidityMs: number;
  idempotencyWaitMs: number;
  projectionPollMs: number;
  /** Least time between two projection runs that follow appends: under load one run applies many requests' events. */
  projectionGatherMs: number;
  jobPollMs: number;
  /** `inline`: on the event loop that serves HTTP; `thread`: on a background thread of the same process. */
  backgroundWork: 'inline' | 'thread';
  /** Processes serving the same port (node:cluster), each a whole service instance; 1: no cluster. */
  httpProcesses: number;
  /** Jobs (provider calls, webhook deliveries) each process runs at once. */
  jobConcurrency: number;
  /** A wallet's snapshot is taken once it has moved this many events past the last one. */
  walletSnapshotEvery: number;
  /** Open event streams one API key may hold at once, across processes. */
  eventStreamsPerKey: number;
  /** Open event streams one partner may hold per environment, all its keys together, across processes. */
  eventStreamsPerPartner: number;
  bodyLimitBytes: number;
  /** Days a finished job is kept. */
  jobRetentionDays: number;
  /** Days the attempts of a finished webhook delivery are kept. */
  webhookAttemptRetentionDays: number;
  /** Days a finished webhook delivery (and what is left of its attempts) is kept. */
  webhookDeliveryRetentionDays: number;
  /** Longest time a client may take to send a whole request (headers and body); then 408 and the connection is closed. */
  requestTimeoutMs: number;
  /** Longest time a client may take to send a request's headers. */
  headersTimeoutMs: number;
  // Idle keep-alive time after an answer; longer than clients' and balancers' (often 60 s), since a
  // server that closes first races the client's next request, which then fails with a reset.
  keepAliveTimeoutMs: number;
  /** Open connections one client address may hold; further ones are closed at once. 0: no limit. */
  maxConnectionsPerIp: number;
  /** Failed authentications one source address may make per minute before a 429 without lookup (decision 0140). */
  authFailuresPerMinute: number;
  webhookTimeoutMs: number;
  /** Private deployments only: webhooks may reach private, loopback and link-local addresses (never metadata endpoints). */
  webhookAllowPrivateAddresses: boolean;
  /** How long a provider has to answer one call before it counts as unavailable. */
  providerTimeoutMs: number;
  /** Where per-key request counts live: the service database (default) or Redis. */
  rateLimitStore: 'database' | 'redis';
  redisUrl: string | null;
  /** Proxies whose X-Forwarded-For is believed (CIDRs or addresses); empty: the socket address is the caller. */
  trustedProxies: string[];
  /** The first live provider (LIVE_PROVIDER, or the first of LIVE_PROVIDERS); null: none. */
  liveProvider: LiveProviderName | null;
  /** Every live provider configured (LIVE_PROVIDERS=reloadly,setu; LIVE_PROVIDER is the one-provider form); empty: live orders are refused with 503 provider_unavailable before any debit. */
  liveProviders: LiveProviderName[];
  reloadly: ReloadlyConfig | null;
  setu: SetuConfig | null;
  /** When each live provider's day is reconciled, in its report zone (decision 0123); null: never. */
  reconciliationAt: TimeOfDay | null;
}
