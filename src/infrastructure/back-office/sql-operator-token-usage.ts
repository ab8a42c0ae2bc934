import { OperatorTokenUsage } from '../../application/ports/operator-token-usage.port';
import { LastUseWriter } from '../access/last-use-writer';
import { SchemaScript } from '../sql/migrations';
import { SqlExecutor } from '../sql/sql-database';

export const OPERATOR_LAST_USE_SCHEMA: SchemaScript = {
  name: 'operator-last-use',
  sql: `
CREATE TABLE IF NOT EXISTS operator_last_use (
  operator_id text PRIMARY KEY,
  last_used_at timestamptz NOT NULL
);
`,
};

export class SqlOperatorTokenUsage implements OperatorTokenUsage {
  private readonly lastUse: LastUseWriter;

  constructor(db: SqlExecutor) {
    this.lastUse = new LastUseWriter(db, { table: 'operator_last_use', id: 'operator_id' });
  }

  recordUse(operatorId: string, at: Date): void {
    this.lastUse.record(operatorId, at);
  }

  lastUses(operatorIds: readonly string[]): Promise<Map<string, Date>> {
    return this.lastUse.read(operatorIds);
  }
}
