import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { ApplicationModule } from '../application.module';
import { McpController } from '../../interface/mcp/mcp.controller';
import { PartnerRequestAuthorizer } from '../../interface/shared/partner-request-authorizer';
import { PartnerToolServerFactory } from '../../interface/mcp/partner-tools';

@Module({
  imports: [CqrsModule, ApplicationModule],
  controllers: [McpController],
  providers: [PartnerRequestAuthorizer, PartnerToolServerFactory],
  exports: [PartnerRequestAuthorizer],
})
export class McpModule {}
