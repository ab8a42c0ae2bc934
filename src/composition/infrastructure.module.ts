import { PARTNER_EVENT_BODIES_AS_SENT } from '../interface/shared/partner-event-resources';
import { DynamicModule, Global, Logger, Module, Provider } from '@nestjs/common';
import { BILL_FETCH_STORE } from '../application/ports/bill-fetch-store.port';
import { CATALOG } from '../application/ports/catalog.port';
import { CLOCK, Clock } from '../application/ports/clock.port';
import { LOG_EVENT_DECODER } from '../application/ports/event-decoder.port';
import { EVENT_STORE } from '../application/ports/event-store.port';
import { EVENT_LOG_DIAGNOSTICS } from '../application/ports/event-log-diagnostics.port';
import { EVENTS_BY_CORRELATION } from '../application/ports/events-by-correlation.port';
import { KEY_BINDING_APPEND } from '../application/ports/key-binding-append.port';
import { IDEMPOTENCY_STORE, IDEMPOTENCY_WINDOW_MS } from '../application/ports/idempotency-store.port';
import { JOB_QUEUE } from '../application/ports/job-queue.port';
import { PROVIDER_DIRECTORY, ProviderDirectory } from '../application/ports/provider-gateway.port';
import { PROVIDER_BACK_OFFICES } from '../application/ports/provider-back-office.port';
import { StaticProviderBackOffices } from '../infrastructure/providers/provider-back-offices';
import { READ_MODELS, ReadModels } from '../application/ports/read-models.port';
import { KEY_HASHER, SECRET_GENERATOR, SecretGenerator } from '../application/ports/secrets.port';
import { SERVICE_CONFIG, ServiceConfig } from '../config/service-config';
import { SERVICE_SETTINGS, ServiceSettings } from '../application/shared/service-settings';
import { RECONCILIATION_METRICS, RECONCILIATION_RUNS } from '../application/ports/reconciliation-runs.port';
import { SqlReconciliationRuns } from '../infrastructure/reconciliation/sql-reconciliation-runs';
import { prometheusReconciliationMetrics } from '../infrastructure/metrics/reconciliation-metrics';
import { ACCESS_FENCES } from '../application/ports/access-fences.port';
import { SqlAccessFences } from '../infrastructure/access/sql-access-fences';
import { EVENT_STREAM_LEASES } from '../application/ports/event-stream-leases.port';
import { SqlEventStreamLeases } from '../infrastructure/events-feed/sql-event-stream-leases';
import { SqlKeyUsage } from '../infrastructure/access/sql-key-usage';
import { KEY_USAGE } from '../application/ports/key-usage.port';
import { SNAPSHOT_SEAL, WALLET_SNAPSHOTS } from '../application/ports/wallet-snapshots.port';
import { HmacSnapshotSeal } from '../infrastructure/security/hmac-snapshot-seal';
import { SqlWalletSnapshots } from '../infrastructure/wallet-snapshots/sql-wallet-snapshots';
import { SqlBillFetchStore } from '../infrastructure/bills/sql-bill-fetch-store';
import { JsonCatalog } from '../infrastructure/catalog/json-catalog';
import { SystemClock } from '../infrastructure/clock/system-clock';
import type { EventStoreDbEventStore } from '../infrastructure/event-store/eventstoredb-event-store';
import { SqlEventStore } from '../infrastructure/event-store/sql-event-store';
import { SqlIdempotencyStore } from '../infrastructure/idempotency/sql-idempotency-store';
import { SqlJobQueue } from '../infrastructure/jobs/sql-job-queue';
import { openDatabase } from '../infrastructure/open-database';
import { StaticProviderDirectory } from '../infrastructure/providers/provider-directory';
import { ProviderWithDeadline } from '../infrastructure/providers/provider-deadline';
import { SandboxProvider } from '../infrastructure/providers/sandbox/sandbox-provider';
import { LiveProviders } from '../infrastructure/providers/live-providers';
import { PROVIDER_STATUS } from '../application/ports/provider-status.port';
import { SqlReadModels } from '../infrastructure/read-models/sql-read-models';
import { SqlPartnerEventFeed } from '../infrastructure/read-models/sql-partner-event-feed';
import { PARTNER_EVENT_FEED } from '../application/ports/partner-event-feed.port';
import { BACK_OFFICE_SEARCH } from '../application/ports/back-office-search.port';
import { OVERVIEW_STATS } from '../application/ports/overview-stats.port';
import { SqlOverviewStats } from '../infrastructure/read-models/sql-overview-stats';
import { SqlBackOfficeSearch } from '../infrastructure/back-office/sql-back-office-search';
import { OPERATOR_ACTIONS } from '../application/ports/operator-actions.port';
import { SqlOperatorActions } from '../infrastructure/back-office/sql-operator-actions';
import { BACK_OFFICE_ACTION_LOG } from '../application/ports/back-office-action-log.port';
import { SqlBackOfficeActionLog } from '../infrastructure/back-office/sql-back-office-action-log';
import { OPERATOR_TOKEN_USAGE } from '../application/ports/operator-token-usage.port';
import { SqlOperatorTokenUsage } from '../infrastructure/back-office/sql-operator-token-usage';
import { CryptoSecretGenerator } from '../infrastructure/security/crypto-secret-generator';
import { HmacKeyHasher } from '../infrastructure/security/hmac-key-hasher';
import { SqlDatabase } from '../infrastructure/sql/sql-database';
import { RATE_LIMITER, RateLimiter } from '../application/ports/rate-limiter.port';
import { AUTH_FAILURE_THROTTLE } from '../application/ports/auth-failure-throttle.port';
import { TokenBucketAuthFailureThrottle } from '../infrastructure/rate-limit/token-bucket-auth-failure-throttle';
import { MemoryTokenBuckets } from '../infrastructure/rate-limit/memory-token-buckets';
import { TokenBuckets } from '../infrastructure/rate-limit/token-buckets';
import { SECRET_BOX, WEBHOOK_DELIVERY_STORE, WEBHOOK_SENDER, WebhookSender } from '../application/ports/webhook.port';
import { SqlRateLimiter } from '../infrastructure/rate-limit/sql-rate-limiter';
import { LeasedKeyAdmission } from '../infrastructure/rate-limit/leased-key-admission';
import { LeaseReleasingFences } from '../infrastructure/rate-limit/lease-releasing-fences';
import { SqlKeyAdmission } from '../infrastructure/rate-limit/sql-key-admission';
import { UncountedKeyAdmission } from '../infrastructure/rate-limit/uncounted-key-admission';
import {
  ADMISSION_LEASES,
  AdmissionLeases,
  KEY_ADMISSION,
  KeyAdmission,
} from '../application/ports/key-admission.port';
import { AesSecretBox } from '../infrastructure/security/aes-secret-box';
import { OUTBOUND_ADDRESS_POLICY } from '../application/ports/outbound-address-policy.port';
import { OutboundAddressPolicy } from '../infrastructure/webhooks/outbound-address-policy';
import { HttpWebhookSender } from '../infrastructure/webhooks/http-webhook-sender';
import { SqlWebhookDeliveryStore } from '../infrastructure/webhooks/sql-webhook-delivery-store';
import { LIVE_PROVIDER, SQL_DATABASE } from './tokens';

export interface InfrastructureOverrides {
  clock?: Clock;
  providers?: ProviderDirectory;
  webhookSender?: WebhookSender;
  /** Ids and keys (a seeded generator makes order ids, and so job order, repeat from run to run). */
  secrets?: SecretGenerator;
}

const IDEMPOTENCY_LEASE_MS = 10_000;

@Global()
@Module({})
export class InfrastructureModule {
  static forRoot(config: ServiceConfig, overrides: InfrastructureOverrides = {}): DynamicModule {
    const sql = (factory: (db: SqlDatabase) => unknown) => ({ useFactory: factory, inject: [SQL_DATABASE] });
    const addressPolicy = new OutboundAddressPolicy(config.webhookAllowPrivateAddresses);
    const redisUrl = config.rateLimitStore === 'redis' ? config.redisUrl : null;
    const catalog = new JsonCatalog();
    const providers: Provider[] = [
      { provide: SERVICE_CONFIG, useValue: config },
      {
        provide: SERVICE_SETTINGS,
        useValue: {
          stuckOrderAfterMs: config.stuckOrderAfterMs,
          billValidityMs: config.billValidityMs,
          idempotencyWaitMs: config.idempotencyWaitMs,
          walletSnapshotEvery: config.walletSnapshotEvery,
          eventStreamsPerKey: config.eventStreamsPerKey,
          eventStreamsPerPartner: config.eventStreamsPerPartner,
          reconciliationAt: config.reconciliationAt,
        } satisfies ServiceSettings,
      },
      { provide: SQL_DATABASE, useFactory: () => openDatabase(config) },
      config.eventStore === 'eventstoredb'
        ? { provide: EVENT_STORE, useFactory: () => connectEventStoreDb(config) }
        : { provide: EVENT_STORE, ...sql((db) => new SqlEventStore(db, LOG_EVENT_DECODER)) },
      // The ports the same store adapter serves beside the EventStore.
      { provide: EVENTS_BY_CORRELATION, useExisting: EVENT_STORE },
      { provide: EVENT_LOG_DIAGNOSTICS, useExisting: EVENT_STORE },
      // Only the SQL stores bind Idempotency-Keys in the commit of their events (the key placement follows from it).
      ...(config.eventStore === 'eventstoredb' ? [] : [{ provide: KEY_BINDING_APPEND, useExisting: EVENT_STORE }]),
      { provide: READ_MODELS, ...sql((db) => new SqlReadModels(db)) },
      { provide: PARTNER_EVENT_FEED, ...sql((db) => new SqlPartnerEventFeed(db, PARTNER_EVENT_BODIES_AS_SENT)) },
      { provide: BACK_OFFICE_SEARCH, ...sql((db) => new SqlBackOfficeSearch(db)) },
      { provide: OPERATOR_ACTIONS, ...sql((db) => new SqlOperatorActions(db)) },
      { provide: BACK_OFFICE_ACTION_LOG, ...sql((db) => new SqlBackOfficeActionLog(db)) },
      { provide: RECONCILIATION_RUNS, ...sql((db) => new SqlReconciliationRuns(db)) },
      { provide: RECONCILIATION_METRICS, useValue: prometheusReconciliationMetrics },
      { provide: OPERATOR_TOKEN_USAGE, ...sql((db) => new SqlOperatorTokenUsage(db)) },
      { provide: OVERVIEW_STATS, ...sql((db) => new SqlOverviewStats(db)) },
      {
        provide: IDEMPOTENCY_STORE,
        ...sql((db) => {
          const relaxed = db.withAsynchronousCommit();
          const eventsShareTheLog = config.eventStore !== 'eventstoredb';
          return new SqlIdempotencyStore(
            { reservations: eventsShareTheLog ? relaxed : db, answers: relaxed },
            { windowMs: IDEMPOTENCY_WINDOW_MS, leaseMs: IDEMPOTENCY_LEASE_MS },
          );
        }),
      },
      {
        provide: ACCESS_FENCES,
        useFactory: (db: SqlDatabase, leases: AdmissionLeases) =>
          new LeaseReleasingFences(new SqlAccessFences(db), leases),
        inject: [SQL_DATABASE, ADMISSION_LEASES],
      },
      { provide: KEY_USAGE, ...sql((db) => new SqlKeyUsage(db)) },
      { provide: EVENT_STREAM_LEASES, ...sql((db) => new SqlEventStreamLeases(db)) },
      // Every mode: beside the events in PostgreSQL, beside the read models with EventStoreDB (tied to the log by event id).
      { provide: WALLET_SNAPSHOTS, ...sql((db) => new SqlWalletSnapshots(db.withAsynchronousCommit())) },
      { provide: SNAPSHOT_SEAL, useValue: new HmacSnapshotSeal(config.apiKeySecrets) },
      { provide: BILL_FETCH_STORE, ...sql((db) => new SqlBillFetchStore(db)) },
      { provide: JOB_QUEUE, ...sql((db) => new SqlJobQueue(db)) },
      { provide: CLOCK, useValue: overrides.clock ?? new SystemClock() },
      { provide: KEY_HASHER, useValue: new HmacKeyHasher(config.apiKeySecrets) },
      { provide: SECRET_GENERATOR, useValue: overrides.secrets ?? new CryptoSecretGenerator() },
      { provide: CATALOG, useValue: catalog },
      { provide: OUTBOUND_ADDRESS_POLICY, useValue: addressPolicy },
      {
        provide: WEBHOOK_SENDER,
        useValue: overrides.webhookSender ?? new HttpWebhookSender(config.webhookTimeoutMs, addressPolicy),
      },
      { provide: WEBHOOK_DELIVERY_STORE, ...sql((db) => new SqlWebhookDeliveryStore(db)) },
      { provide: SECRET_BOX, useValue: new AesSecretBox(config.apiKeySecrets) },
      {
        provide: KEY_ADMISSION,
        useFactory: (db: SqlDatabase, readModels: ReadModels) =>
          redisUrl
            ? new UncountedKeyAdmission((keyHash) => readModels.apiKeyAccess(keyHash))
            : new LeasedKeyAdmission(new SqlKeyAdmission(db.withAsynchronousCommit()), {
                leaseMs: config.admissionLeaseMs,
                limitOf: async (partnerId, environment) =>
                  (await readModels.partnerSettings(partnerId, environment)).rateLimitPerMinute,
              }),
        inject: [SQL_DATABASE, READ_MODELS],
      },
      {
        provide: ADMISSION_LEASES,
        useFactory: (admission: KeyAdmission): AdmissionLeases =>
          admission instanceof LeasedKeyAdmission ? admission : { release: () => Promise.resolve() },
        inject: [KEY_ADMISSION],
      },
      {
        provide: RATE_LIMITER,
        ...sql(async (db) =>
          redisUrl
            ? (await import('../infrastructure/rate-limit/redis-rate-limiter')).RedisRateLimiter.connect(redisUrl)
            : new SqlRateLimiter(db.withAsynchronousCommit()),
        ),
      },
      {
        // Beside the rate limit in Redis, shared by every process; otherwise per process, in memory, so
        // that refusing a flooding address costs no database statement.
        provide: AUTH_FAILURE_THROTTLE,
        useFactory: async (limiter: RateLimiter) =>
          new TokenBucketAuthFailureThrottle(await authFailureBuckets(limiter, redisUrl), config.authFailuresPerMinute),
        inject: [RATE_LIMITER],
      },
      // Built by the container, so that what they log goes through the service's logger.
      {
        provide: LIVE_PROVIDER,
        useFactory: (clock: Clock) => LiveProviders.fromConfig(config, catalog, () => clock.now().getTime()),
        inject: [CLOCK],
      },
      {
        provide: PROVIDER_DIRECTORY,
        useFactory: (live: LiveProviders) =>
          overrides.providers ??
          new StaticProviderDirectory(
            new ProviderWithDeadline(new SandboxProvider(), config.providerTimeoutMs),
            new Map(
              live.adapters.map((adapter) => [
                adapter.name,
                new ProviderWithDeadline(adapter.gateway, config.providerTimeoutMs, adapter.name),
              ]),
            ),
          ),
        inject: [LIVE_PROVIDER],
      },
      { provide: PROVIDER_STATUS, useFactory: (live: LiveProviders) => live, inject: [LIVE_PROVIDER] },
      {
        provide: PROVIDER_BACK_OFFICES,
        useFactory: (live: LiveProviders) =>
          new StaticProviderBackOffices(
            new Map(live.adapters.flatMap((adapter) => (adapter.catalog ? [[adapter.name, adapter.catalog]] : []))),
            new Map(live.adapters.flatMap((adapter) => (adapter.reports ? [[adapter.name, adapter.reports]] : []))),
          ),
        inject: [LIVE_PROVIDER],
      },
    ];
    return { module: InfrastructureModule, providers, exports: providers };
  }
}

/** EVENT_STORE=eventstoredb: events in EventStoreDB at EVENTSTORE_CONNECTION_STRING; the start fails if it does not answer. */
async function connectEventStoreDb(config: ServiceConfig): Promise<EventStoreDbEventStore> {
  if (!config.eventStoreConnectionString)
    throw new Error('EVENTSTORE_CONNECTION_STRING is required when EVENT_STORE=eventstoredb');
  const logger = new Logger('EventStoreDB');
  // Loaded only when configured, as the Redis adapters are: their clients cost every other start about 0.1 s.
  const { EventStoreDbEventStore } = await import('../infrastructure/event-store/eventstoredb-event-store');
  return EventStoreDbEventStore.connect(config.eventStoreConnectionString, LOG_EVENT_DECODER, {
    onWarning: (message, error) => logger.warn(`${message}: ${error instanceof Error ? error.message : String(error)}`),
  });
}

/** Token buckets in Redis beside a Redis rate limit (shared by every process), otherwise in this process's memory. */
async function authFailureBuckets(limiter: RateLimiter, redisUrl: string | null): Promise<TokenBuckets> {
  if (!redisUrl) return new MemoryTokenBuckets();
  const { RedisRateLimiter } = await import('../infrastructure/rate-limit/redis-rate-limiter');
  if (!(limiter instanceof RedisRateLimiter)) return new MemoryTokenBuckets();
  const { RedisTokenBuckets } = await import('../infrastructure/rate-limit/redis-token-buckets');
  return new RedisTokenBuckets(limiter.redis, 'authfail:');
}
