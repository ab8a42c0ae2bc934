import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { ApplicationModule } from '../application.module';
import { BackOfficeOperatorsModule } from '../back-office-operators.module';
import { OrderAnswersModule } from './order-answers.module';
import { ProcessingModule } from '../processing.module';
import { ServiceConfig } from '../../config/service-config';
import { InfrastructureModule, InfrastructureOverrides } from '../infrastructure.module';
import { BackgroundMode } from '../../infrastructure/processing/background-processing';
import { AdminController } from '../../interface/http/admin/admin.controller';
import { AdminTokenGuard } from '../../interface/http/admin/admin-token.guard';
import { SecretsController } from '../../interface/http/admin/secrets.controller';
import { AuditController } from '../../interface/http/admin/audit.controller';
import { BackOfficeController } from '../../interface/http/admin/back-office.controller';
import { ProjectionsController } from '../../interface/http/admin/projections.controller';
import { ProviderStatusController } from '../../interface/http/admin/provider-status.controller';
import { ProvidersController } from '../../interface/http/admin/providers.controller';
import { OverviewController } from '../../interface/http/admin/overview.controller';
import { RoutesController } from '../../interface/http/admin/routes.controller';
import { OperatorsController } from '../../interface/http/admin/operators.controller';
import { ApiExceptionFilter } from '../../interface/http/errors/api-exception.filter';
import { BalanceController } from '../../interface/http/partner/balance.controller';
import { CatalogController } from '../../interface/http/partner/catalog.controller';
import { OrdersController } from '../../interface/http/partner/orders.controller';
import { PartnerAuthGuard } from '../../interface/http/partner/partner-auth.guard';
import { PartnerRequestAuthorizer } from '../../interface/shared/partner-request-authorizer';
import { EventsController } from '../../interface/http/partner/events.controller';
import { EventStreams } from '../../interface/http/partner/event-streams';
import { TransactionsController } from '../../interface/http/partner/transactions.controller';
import { SettingsController } from '../../interface/http/partner/settings.controller';
import { KeysController } from '../../interface/http/partner/keys.controller';
import { HealthController } from '../../interface/http/operations/health.controller';
import { MetricsController } from '../../interface/http/operations/metrics.controller';
import { McpModule } from './mcp.module';

export interface AppOptions extends InfrastructureOverrides {
  background?: BackgroundMode;
  /** Runs after a SIGTERM/SIGINT close, before exit (the embedded PostgreSQL stops here); unset: Nest's own hooks. */
  afterClose?: () => Promise<void>;
}

@Module({})
export class AppModule {
  static forRoot(config: ServiceConfig, options: AppOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CqrsModule.forRoot(),
        InfrastructureModule.forRoot(config, options),
        ProcessingModule.forRoot(config, { background: options.background ?? { kind: 'here' } }),
        OrderAnswersModule,
        ApplicationModule,
        BackOfficeOperatorsModule,
        McpModule,
      ],
      controllers: [
        BalanceController,
        CatalogController,
        OrdersController,
        TransactionsController,
        EventsController,
        SettingsController,
        KeysController,
        AdminController,
        BackOfficeController,
        ProjectionsController,
        SecretsController,
        ProviderStatusController,
        AuditController,
        RoutesController,
        ProvidersController,
        OperatorsController,
        OverviewController,
        HealthController,
        MetricsController,
      ],
      providers: [
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
        PartnerRequestAuthorizer,
        PartnerAuthGuard,
        AdminTokenGuard,
        EventStreams,
      ],
    };
  }
}
