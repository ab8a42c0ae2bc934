import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { ApplicationModule } from '../../application/application.module';
import { McpController } from './mcp.controller';
import { PartnerRequestAuthorizer } from '../shared/partner-request-authorizer';
import { PartnerToolServerFactory } from './partner-tools';

/** The agent-tool endpoint ({mcp_url} = /v1/mcp): the partner operations as MCP tools over the same application commands. */
@Module({
  imports: [CqrsModule, ApplicationModule],
  controllers: [McpController],
  providers: [PartnerRequestAuthorizer, PartnerToolServerFactory],
  exports: [PartnerRequestAuthorizer],
})
export class McpModule {}
