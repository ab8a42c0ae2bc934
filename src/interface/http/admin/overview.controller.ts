import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import { Overview, ShowOverview } from '../../../application/operations/show-overview';
import { ShowServiceHealth } from '../../../application/operations/show-service-health';
import { ShowWebhookOverview, WebhookOverview } from '../../../application/operations/show-webhook-overview';
import { AdminTokenGuard } from './admin-token.guard';
import { ordersByDaySvg, webhooksByDaySvg } from './overview-chart';
import { overviewResource } from './overview-resource';
import { RequiresPermission } from './permission.decorator';

const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'";

@ApiExcludeController()
@Controller('v1/admin/overview')
@UseGuards(AdminTokenGuard)
export class OverviewController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @RequiresPermission('read')
  async overview() {
    const [overview, webhooks, health] = await Promise.all([
      this.queries.execute(new ShowOverview()),
      this.queries.execute(new ShowWebhookOverview()),
      this.queries.execute(new ShowServiceHealth()),
    ]);
    return overviewResource(overview, webhooks, health);
  }

  @Get('orders-by-day.svg')
  @RequiresPermission('read')
  @Header('content-type', 'image/svg+xml; charset=utf-8')
  @Header('content-security-policy', SVG_POLICY)
  async ordersByDay(): Promise<string> {
    const overview: Overview = await this.queries.execute(new ShowOverview());
    return ordersByDaySvg(overview);
  }

  @Get('webhooks-by-day.svg')
  @RequiresPermission('read')
  @Header('content-type', 'image/svg+xml; charset=utf-8')
  @Header('content-security-policy', SVG_POLICY)
  async webhooksByDay(): Promise<string> {
    const webhooks: WebhookOverview = await this.queries.execute(new ShowWebhookOverview());
    return webhooksByDaySvg(webhooks);
  }
}
