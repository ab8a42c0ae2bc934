import { TimeOfDay } from '../domain/reconciliation/reconciliation-schedule';

export type EventStoreMode = 'embedded' | 'postgres' | 'eventstoredb';

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

export interface SetuConfig {
  /** Base URL (production https://coudc.setu.co, sandbox https://sandbox-coudc.setu.co); tokens from `<url>/api/v2/auth/token`. */
  url: string;
  clientId: string;
  clientSecret: string;
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

export const LIVE_PROVIDER_NAMES = ['reloadly', 'setu'] as const;
export type LiveProviderName = (typeof LIVE_PROVIDER_NAMES)[number];

export const SERVICE_CONFIG = Symbol('ServiceConfig');

export interface ServiceConfig {
  port: number;
  host: string;
  eventStore: EventStoreMode;
  /** Embedded mode's data folder (its PostgreSQL cluster); also where a generated admin token and key secret are kept. */
  dataDir: string;
  databaseUrl: string | null;
  eventStoreConnectionString: string | null;
  apiKeySecret: string;
  /** Newest first (decision 0142): what any of them made is accepted; new keys, tokens and seals use the first. */
  apiKeySecrets: string[];
  adminToken: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  logFormat: 'json' | 'pretty';
  stuckOrderAfterMs: number;
  billValidityMs: number;
  idempotencyWaitMs: number;
  projectionPollMs: number;
  /** Least time between two projection runs that follow appends: under load one run applies many requests' events. */
  projectionGatherMs: number;
  /** How long a key's leased admission may be used without a statement (decision 0161); 0: every request admitted by one. */
  admissionLeaseMs: number;
  jobPollMs: number;
  /** `inline`: on the event loop that serves HTTP; `thread`: on a background thread of the same process. */
  backgroundWork: 'inline' | 'thread';
  httpProcesses: number;
  jobConcurrency: number;
  walletSnapshotEvery: number;
  eventStreamsPerKey: number;
  eventStreamsPerPartner: number;
  bodyLimitBytes: number;
  jobRetentionDays: number;
  webhookAttemptRetentionDays: number;
  webhookDeliveryRetentionDays: number;
  /** Longest time a client may take to send a whole request (headers and body); then 408 and the connection is closed. */
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  // Idle keep-alive time after an answer; longer than clients' and balancers' (often 60 s), since a
  // server that closes first races the client's next request, which then fails with a reset.
  keepAliveTimeoutMs: number;
  maxConnectionsPerIp: number;
  /** Failed authentications one source address may make per minute before a 429 without lookup (decision 0140). */
  authFailuresPerMinute: number;
  webhookTimeoutMs: number;
  /** Private deployments only: webhooks may reach private, loopback and link-local addresses (never metadata endpoints). */
  webhookAllowPrivateAddresses: boolean;
  providerTimeoutMs: number;
  rateLimitStore: 'database' | 'redis';
  redisUrl: string | null;
  /** Proxies whose X-Forwarded-For is believed (CIDRs or addresses); empty: the socket address is the caller. */
  trustedProxies: string[];
  liveProvider: LiveProviderName | null;
  /** Every live provider configured (LIVE_PROVIDERS=reloadly,setu; LIVE_PROVIDER is the one-provider form); empty: live orders are refused with 503 provider_unavailable before any debit. */
  liveProviders: LiveProviderName[];
  reloadly: ReloadlyConfig | null;
  setu: SetuConfig | null;
  /** When each live provider's day is reconciled, in its report zone (decision 0123); null: never. */
  reconciliationAt: TimeOfDay | null;
}
