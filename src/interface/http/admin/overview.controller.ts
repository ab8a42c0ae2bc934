import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import { Overview, ShowOverview } from '../../../application/operations/show-overview';
import { ShowServiceHealth } from '../../../application/operations/show-service-health';
import { AdminTokenGuard } from './admin-token.guard';
import { ordersByDaySvg } from './overview-chart';

/** The operator's landing page data: how the service is doing today and this week, and its chart. */
@ApiExcludeController()
@Controller('v1/admin/overview')
@UseGuards(AdminTokenGuard)
export class OverviewController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  async overview() {
    const [overview, health] = await Promise.all([
      this.queries.execute(new ShowOverview()),
      this.queries.execute(new ShowServiceHealth()),
    ]);
    const { rows_read: healthRows, ...panels } = health;
    return { ...overview, ...panels, rows_read: overview.rows_read + healthRows };
  }

  /** Orders per day as an SVG image drawn here (no script, no external resource). */
  @Get('orders-by-day.svg')
  @Header('content-type', 'image/svg+xml; charset=utf-8')
  @Header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
  async ordersByDay(): Promise<string> {
    const overview: Overview = await this.queries.execute(new ShowOverview());
    return ordersByDaySvg(overview);
  }
}
