import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { EVENT_STORE, EventStore } from './ports/event-store.port';
import { KEY_BINDING_APPEND, KeyBindingAppend } from './ports/key-binding-append.port';
import { JOB_HANDLERS } from './ports/job-queue.port';
import { SNAPSHOT_SEAL, SnapshotSeal, WALLET_SNAPSHOTS, WalletSnapshots } from './ports/wallet-snapshots.port';
import { SERVICE_SETTINGS, ServiceSettings } from './shared/service-settings';
import { AuthenticateApiKey } from './auth/authenticate-api-key';
import { ReadLatestPartnerEventsHandler, ReadPartnerEventsHandler } from './events-feed/read-partner-events';
import { EventStreamWatch } from './events-feed/event-stream-watch';
import { VerifyMoneyInvariantsHandler } from './audit/verify-money-invariants';
import { AuditOrderHandler } from './audit/audit-order';
import { AuditWalletHandler } from './audit/audit-wallet';
import { DailyStatementHandler } from './audit/daily-statement';
import { PeriodStatementHandler } from './audit/period-statement';
import {
  RebuildProjectionHandler,
  ShowProjectionRebuildHandler,
  ShowProjectionsHandler,
} from './operations/projection-rebuilds';
import { ShowLiveProviderHandler } from './operations/live-provider-status';
import { ListBillersHandler } from './catalog/list-billers';
import { ListOperatorsHandler } from './catalog/list-operators';
import { ListOrdersForOperatorsHandler, ShowOrderHandler, ShowPartnerHandler } from './operations/admin-queries';
import { ResolveOrderHandler } from './operations/resolve-order';
import { BACK_OFFICE_QUERY_HANDLERS } from './operations/back-office-queries';
import { FetchBillHandler } from './orders/fetch-bill';
import { GetTransactionHandler } from './orders/get-transaction';
import { ListTransactionsHandler } from './orders/list-transactions';
import { OrderPlacement } from './orders/order-placement';
import { OrderDebit } from './orders/placement/order-debit';
import { ReservedKeyPlacement } from './orders/placement/reserved-key-placement';
import { KEY_PLACEMENT, KeyPlacement } from './orders/placement/key-placement';
import { KeyBoundWithTheDebit } from './orders/placement/key-bound-with-the-debit';
import { KeyReservedAroundTheDebit } from './orders/placement/key-reserved-around-the-debit';
import { PayBillHandler } from './orders/pay-bill';
import { PlaceTopupHandler } from './orders/place-topup';
import { ChangeKycStatusHandler } from './partners/change-kyc-status';
import { CreditWalletHandler } from './partners/credit-wallet';
import { OnboardPartnerHandler } from './partners/onboard-partner';
import { RegenerateApiKeyHandler } from './partners/regenerate-api-key';
import { CreateScopedKeyHandler } from './keys/create-scoped-key';
import { RevokeScopedKeyHandler } from './keys/revoke-scoped-key';
import { ListScopedKeysHandler } from './keys/list-scoped-keys';
import { SandboxGrant } from './partners/sandbox-grant';
import { GrantSandboxCreditJob } from './process-managers/grant-sandbox-credit.job';
import { HoldStuckOrderJob } from './process-managers/hold-stuck-order.job';
import { OrderLifecycle } from './process-managers/order-lifecycle';
import { PollOrderJob } from './process-managers/poll-order.job';
import { RefundOrderJob } from './process-managers/refund-order.job';
import { SubmitOrderJob } from './process-managers/submit-order.job';
import { DeciderRunner } from './shared/decider-runner';
import { OrderRouting } from './routing/order-routing';
import { ReconcileProviderHandler } from './reconciliation/reconcile-provider';
import { RemoveRouteHandler } from './routing/remove-route';
import { SetRoutesHandler } from './routing/set-routes';
import { RouteHistoryHandler, ShowRoutesHandler } from './routing/show-routes';
import { SyncProviderRoutesHandler } from './routing/sync-provider-routes';
import { ShowProviderBreakersHandler } from './routing/show-provider-breakers';
import { ProviderBreakers } from './routing/provider-breakers';
import { RouteBook } from './routing/route-book';
import { WalletCommandProcessor } from './wallets/wallet-command-processor';
import { GetBalanceHandler } from './wallets/get-balance';
import { AuthorizePartnerRequest } from './access/authorize-partner-request';
import { ConfigurePartnerHandler } from './settings/configure-partner';
import { GetPartnerSettingsHandler } from './settings/get-partner-settings';
import { DeliverWebhookJob } from './webhooks/deliver-webhook.job';
import { NotifyLowBalanceJob } from './wallets/low-balance-notice';
import { ShowOverviewHandler } from './operations/show-overview';
import { ShowServiceHealthHandler } from './operations/show-service-health';
import { ShowWebhookOverviewHandler } from './operations/show-webhook-overview';
import {
  GetWebhookDeliveryHandler,
  ListWebhookDeliveriesHandler,
  ResendWebhookHandler,
} from './webhooks/webhook-deliveries';

const COMMAND_HANDLERS = [
  PlaceTopupHandler,
  FetchBillHandler,
  PayBillHandler,
  OnboardPartnerHandler,
  ChangeKycStatusHandler,
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
  ListOperatorsHandler,
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
];
const JOBS = [
  SubmitOrderJob,
  PollOrderJob,
  RefundOrderJob,
  HoldStuckOrderJob,
  GrantSandboxCreditJob,
  DeliverWebhookJob,
  NotifyLowBalanceJob,
];

/** Use cases, process managers and the services they share. Adapters come from the infrastructure module. */
@Module({
  imports: [CqrsModule],
  providers: [
    ...COMMAND_HANDLERS,
    ...QUERY_HANDLERS,
    ...BACK_OFFICE_QUERY_HANDLERS,
    ...JOBS,
    AuthenticateApiKey,
    AuthorizePartnerRequest,
    EventStreamWatch,
    OrderPlacement,
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
  ],
  exports: [AuthenticateApiKey, AuthorizePartnerRequest, EventStreamWatch, JOB_HANDLERS, WalletCommandProcessor],
})
export class ApplicationModule {}
