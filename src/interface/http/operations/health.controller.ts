import { Controller, Get, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { SqlDatabase } from '../../../infrastructure/sql/sql-database';
import { SQL_DATABASE } from '../../../infrastructure/tokens';
import { ServiceError } from '../../../application/shared/service-error';

/** Liveness and readiness for load balancers and container health checks: the database answers. */
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(@Inject(SQL_DATABASE) private readonly db: SqlDatabase) {}

  @Get()
  async health(): Promise<Record<string, string>> {
    try {
      await this.db.query('SELECT 1');
    } catch {
      throw new ServiceError('service_unavailable', 'the database does not answer');
    }
    return { status: 'ok' };
  }
}
