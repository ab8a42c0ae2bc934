import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { EVENT_STORE, EventStore } from '../application/ports/event-store.port';
import { KEY_BINDING_APPEND, KeyBindingAppend } from '../application/ports/key-binding-append.port';
import { JOB_HANDLERS } from '../application/ports/job-queue.port';
import {
  SNAPSHOT_SEAL,
  SnapshotSeal,
  WALLET_SNAPSHOTS,
  WalletSnapshots,
} from '../application/ports/wallet-snapshots.port';
import { SERVICE_SETTINGS, ServiceSettings } from '../application/shared/service-settings';
import { AuthenticateApiKey } from '../application/auth/authenticate-api-key';
import {
  ReadLatestPartnerEventsHandler,
  ReadPartnerEventsHandler,
} from '../application/events-feed/read-partner-events';
import { EventStreamWatch } from '../application/events-feed/event-stream-watch';
import { VerifyMoneyInvariantsHandler } from '../application/audit/verify-money-invariants';
import { AuditOrderHandler } from '../application/audit/audit-order';
import { AuditWalletHandler } from '../application/audit/audit-wallet';
import { DailyStatementHandler } from '../application/audit/daily-statement';
import { PeriodStatementHandler } from '../application/audit/period-statement';
import {
  RebuildProjectionHandler,
  ShowProjectionRebuildHandler,
  ShowProjectionsHandler,
} from '../application/operations/projection-rebuilds';
import { ShowLiveProviderHandler } from '../application/operations/live-provider-status';
import { ListBillersHandler } from '../application/catalog/list-billers';
import { ListCarriersHandler } from '../application/catalog/list-carriers';
import {
  ListOrdersForOperatorsHandler,
  ShowOrderHandler,
  ShowPartnerHandler,
} from '../application/operations/admin-queries';
import { ResolveOrderHandler } from '../application/operations/resolve-order';
import { ProviderAtResolution } from '../application/operations/provider-at-resolution';
import { HeldOrderFollowUp } from '../application/operations/held-order-follow-up';
import { HeldOrdersAfterUpgrade } from '../application/settlement/held-orders-after-upgrade';
import { BACK_OFFICE_QUERY_HANDLERS } from '../application/operations/back-office-queries';
import { FetchBillHandler } from '../application/orders/fetch-bill';
import { GetTransactionHandler } from '../application/orders/get-transaction';
import { ListTransactionsHandler } from '../application/orders/list-transactions';
import { OrderPlacement } from '../application/orders/order-placement';
import { MainKeyRequirement } from '../application/auth/main-key-requirement';
import { OrderDebit } from '../application/orders/placement/order-debit';
import { ReservedKeyPlacement } from '../application/orders/placement/reserved-key-placement';
import { KEY_PLACEMENT, KeyPlacement } from '../application/orders/placement/key-placement';
import { KeyBoundWithTheDebit } from '../application/orders/placement/key-bound-with-the-debit';
import { KeyReservedAroundTheDebit } from '../application/orders/placement/key-reserved-around-the-debit';
import { PayBillHandler } from '../application/orders/pay-bill';
import { PlaceTopupHandler } from '../application/orders/place-topup';
import { ChangeKycStatusHandler } from '../application/partners/change-kyc-status';
import { ClaimLiveKeyHandler } from '../application/partners/claim-live-key';
import { CreditWalletHandler } from '../application/partners/credit-wallet';
import { OnboardPartnerHandler } from '../application/partners/onboard-partner';
import { RegenerateApiKeyHandler } from '../application/partners/regenerate-api-key';
import { CreateScopedKeyHandler } from '../application/keys/create-scoped-key';
import { RevokeScopedKeyHandler } from '../application/keys/revoke-scoped-key';
import { ListScopedKeysHandler } from '../application/keys/list-scoped-keys';
import { SandboxGrant } from '../application/partners/sandbox-grant';
import { GrantSandboxCreditJob } from '../application/partners/grant-sandbox-credit.job';
import { HoldStuckOrderJob } from '../application/settlement/hold-stuck-order.job';
import { OrderLifecycle } from '../application/settlement/order-lifecycle';
import { PollOrderJob } from '../application/settlement/poll-order.job';
import { RefundOrderJob } from '../application/settlement/refund-order.job';
import { SubmitOrderJob } from '../application/settlement/submit-order.job';
import { DeciderRunner } from '../application/shared/decider-runner';
import { OrderRouting } from '../application/routing/order-routing';
import { ReconcileProviderHandler } from '../application/reconciliation/reconcile-provider';
import { FindingRecorder } from '../application/reconciliation/finding-recorder';
import { ListReconciliationRunsHandler } from '../application/reconciliation/list-reconciliation-runs';
import { ProviderDays } from '../application/reconciliation/provider-day';
import { ReconcileProviderJob } from '../application/reconciliation/reconcile-provider.job';
import { ReconciliationSchedule } from '../application/reconciliation/reconciliation-schedule';
import { RunLog } from '../application/reconciliation/run-log';
import { ShowReconciliationHandler } from '../application/reconciliation/show-reconciliation';
import { RemoveRouteHandler } from '../application/routing/remove-route';
import { SetRoutesHandler } from '../application/routing/set-routes';
import { RouteHistoryHandler, ShowRoutesHandler } from '../application/routing/show-routes';
import { SyncProviderRoutesHandler } from '../application/routing/sync-provider-routes';
import { ShowProviderBreakersHandler } from '../application/routing/show-provider-breakers';
import { ProviderBreakers } from '../application/routing/provider-breakers';
import { RouteBook } from '../application/routing/route-book';
import { WalletCommandProcessor } from '../application/wallets/wallet-command-processor';
import { GetBalanceHandler } from '../application/wallets/get-balance';
import { AuthorizePartnerRequest } from '../application/access/authorize-partner-request';
import { SourceThrottle } from '../application/access/source-throttle';
import { KeyRehash } from '../application/auth/key-rehash';
import { ResealWebhookSecretsHandler } from '../application/settings/reseal-webhook-secrets';
import { ConfigurePartnerHandler } from '../application/settings/configure-partner';
import { GetPartnerSettingsHandler } from '../application/settings/get-partner-settings';
import { DeliverWebhookJob } from '../application/webhooks/deliver-webhook.job';
import { PARTNER_EVENT_BODIES } from '../application/ports/partner-event-bodies.port';
import { PARTNER_EVENT_BODIES_AS_SENT } from '../interface/shared/partner-event-resources';
import { NotifyLowBalanceJob } from '../application/wallets/low-balance-notice';
import { ShowOverviewHandler } from '../application/operations/show-overview';
import { ShowServiceHealthHandler } from '../application/operations/show-service-health';
import { ShowWebhookOverviewHandler } from '../application/operations/show-webhook-overview';
import {
  GetWebhookDeliveryHandler,
  ListWebhookDeliveriesHandler,
  ResendWebhookHandler,
} from '../application/webhooks/webhook-deliveries';

const COMMAND_HANDLERS = [
  PlaceTopupHandler,
  ResealWebhookSecretsHandler,
  FetchBillHandler,
  PayBillHandler,
  OnboardPartnerHandler,
  ChangeKycStatusHandler,
  ClaimLiveKeyHandler,
  RegenerateApiKeyHandler,
  CreateScopedKeyHandler,
  RevokeScopedKeyHandler,
  ListScopedKeysHandler,
  CreditWalletHandler,
  ResolveOrderHandler,
  ConfigurePartnerHandler,
  ResendWebhookHandler,
  RebuildProjectionHandler,
  SetRoutesHandler,
  RemoveRouteHandler,
  SyncProviderRoutesHandler,
  ReconcileProviderHandler,
];
const QUERY_HANDLERS = [
  GetBalanceHandler,
  ListCarriersHandler,
  ListBillersHandler,
  GetTransactionHandler,
  ListTransactionsHandler,
  ShowPartnerHandler,
  ShowOrderHandler,
  ListOrdersForOperatorsHandler,
  VerifyMoneyInvariantsHandler,
  GetPartnerSettingsHandler,
  ListWebhookDeliveriesHandler,
  GetWebhookDeliveryHandler,
  ShowProjectionsHandler,
  ShowProjectionRebuildHandler,
  ShowLiveProviderHandler,
  AuditWalletHandler,
  AuditOrderHandler,
  DailyStatementHandler,
  PeriodStatementHandler,
  ShowRoutesHandler,
  RouteHistoryHandler,
  ShowProviderBreakersHandler,
  ReadPartnerEventsHandler,
  ReadLatestPartnerEventsHandler,
  ShowOverviewHandler,
  ShowServiceHealthHandler,
  ShowWebhookOverviewHandler,
  ShowReconciliationHandler,
  ListReconciliationRunsHandler,
];
const JOBS = [
  SubmitOrderJob,
  PollOrderJob,
  RefundOrderJob,
  HoldStuckOrderJob,
  GrantSandboxCreditJob,
  DeliverWebhookJob,
  NotifyLowBalanceJob,
  ReconcileProviderJob,
];

@Module({
  imports: [CqrsModule],
  providers: [
    ...COMMAND_HANDLERS,
    ...QUERY_HANDLERS,
    ...BACK_OFFICE_QUERY_HANDLERS,
    ...JOBS,
    AuthenticateApiKey,
    KeyRehash,
    AuthorizePartnerRequest,
    SourceThrottle,
    EventStreamWatch,
    OrderPlacement,
    MainKeyRequirement,
    OrderDebit,
    ReservedKeyPlacement,
    KeyBoundWithTheDebit,
    KeyReservedAroundTheDebit,
    {
      // One key placement per event store, fixed when the store is wired: a store bound as KEY_BINDING_APPEND
      // (the SQL stores) binds the key in the debit's commit; any other (EventStoreDB) has it reserved around it.
      provide: KEY_PLACEMENT,
      useFactory: (
        binding: KeyBindingAppend | undefined,
        bound: KeyBoundWithTheDebit,
        reserved: KeyReservedAroundTheDebit,
      ): KeyPlacement => (binding ? bound : reserved),
      inject: [{ token: KEY_BINDING_APPEND, optional: true }, KeyBoundWithTheDebit, KeyReservedAroundTheDebit],
    },
    OrderLifecycle,
    FindingRecorder,
    ProviderAtResolution,
    HeldOrderFollowUp,
    HeldOrdersAfterUpgrade,
    ProviderDays,
    RunLog,
    ReconciliationSchedule,
    SandboxGrant,
    RouteBook,
    ProviderBreakers,
    OrderRouting,
    { provide: DeciderRunner, useFactory: (store: EventStore) => new DeciderRunner(store), inject: [EVENT_STORE] },
    {
      provide: WalletCommandProcessor,
      useFactory: (
        store: EventStore,
        snapshots: WalletSnapshots,
        settings: ServiceSettings,
        seal: SnapshotSeal,
        keyBinding: KeyBindingAppend | undefined,
      ) => new WalletCommandProcessor(store, snapshots, settings.walletSnapshotEvery, seal, keyBinding ?? null),
      inject: [
        EVENT_STORE,
        WALLET_SNAPSHOTS,
        SERVICE_SETTINGS,
        SNAPSHOT_SEAL,
        { token: KEY_BINDING_APPEND, optional: true },
      ],
    },
    { provide: JOB_HANDLERS, useFactory: (...handlers: unknown[]) => handlers, inject: JOBS },
    { provide: PARTNER_EVENT_BODIES, useValue: PARTNER_EVENT_BODIES_AS_SENT },
  ],
  exports: [
    AuthenticateApiKey,
    AuthorizePartnerRequest,
    SourceThrottle,
    EventStreamWatch,
    JOB_HANDLERS,
    MainKeyRequirement,
    ReconciliationSchedule,
    WalletCommandProcessor,
  ],
})
export class ApplicationModule {}
