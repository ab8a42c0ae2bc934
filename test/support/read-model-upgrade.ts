import { PROJECTION_ADMIN } from '../../src/application/ports/projections.port';
import { SqlProjectionAdmin } from '../../src/infrastructure/projections/sql-projection-admin';
import { SqlDatabase } from '../../src/infrastructure/sql/sql-database';
import { sqlOf } from './ledger';
import { createTestDatabase } from './postgres-test-database';
import { TestService } from './test-service';

interface UpgradeSteps<Kept> {
  /** Activity on the service as it is today; what it returns is handed to `after`. */
  before(older: TestService): Promise<Kept>;
  /** Leaves the read model's tables as the previous version did (its recorded version is set back to it by the helper). */
  downgrade(sql: SqlDatabase, kept: Kept): Promise<void>;
  /** Checks on the service started again, once the rebuilds it started at its start have finished. */
  after(upgraded: TestService, kept: Kept, rebuilds: readonly string[]): Promise<void>;
}

/**
 * A read model upgraded as a release does it: a service on a new PostgreSQL database, its read model set back to
 * `fromVersion`, then the service started again on the same database, which rebuilds it blue/green.
 */
export async function acrossReadModelUpgrade<Kept>(
  projection: string,
  fromVersion: number,
  steps: UpgradeSteps<Kept>,
): Promise<void> {
  const database = await createTestDatabase(`upgrade_${projection.replace(/-/g, '_')}`);
  let older: TestService | null = null;
  let upgraded: TestService | null = null;
  try {
    older = await TestService.start({ store: 'postgres', databaseUrl: database.connectionString });
    const kept = await steps.before(older);
    await steps.downgrade(sqlOf(older), kept);
    await sqlOf(older).query('UPDATE projection_versions SET schema_version = $1 WHERE name = $2', [
      fromVersion,
      projection,
    ]);
    await older.close();
    older = null;

    upgraded = await TestService.start({ store: 'postgres', databaseUrl: database.connectionString });
    const started = await sqlOf(upgraded).query<{ rebuild_id: string }>(
      'SELECT rebuild_id FROM projection_rebuilds WHERE projection = $1',
      [projection],
    );
    const admin = upgraded.app.get<SqlProjectionAdmin>(PROJECTION_ADMIN);
    for (const { rebuild_id: rebuildId } of started) await admin.whenFinished(rebuildId);
    await steps.after(
      upgraded,
      kept,
      started.map((row) => row.rebuild_id),
    );
  } finally {
    await older?.close();
    await upgraded?.close();
    await database.drop();
  }
}
