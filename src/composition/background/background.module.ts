import { DynamicModule, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { ApplicationModule } from '../application.module';
import { ProcessingModule } from '../processing.module';
import { ServiceConfig } from '../../config/service-config';
import { InfrastructureModule } from '../infrastructure.module';

@Module({})
export class BackgroundModule {
  static forRoot(config: ServiceConfig): DynamicModule {
    return {
      module: BackgroundModule,
      imports: [
        CqrsModule.forRoot(),
        InfrastructureModule.forRoot(config),
        ProcessingModule.forRoot(config, { background: { kind: 'here' } }),
        ApplicationModule,
      ],
    };
  }
}
