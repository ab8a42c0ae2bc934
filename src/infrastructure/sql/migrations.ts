import { SqlDatabase } from './sql-database';

/**
 * A schema script that is safe to run again (IF NOT EXISTS everywhere). The service's tables are
 * created by the numbered migrations (schema/schema-migrations.ts), whose first step is made of
 * these scripts: they no longer change; a read model's script changes with its schema version.
 */
export interface SchemaScript {
  name: string;
  sql: string;
}

/**
 * Applies the schema scripts in one transaction under an advisory lock, so several
 * processes starting at once against one database do not race on CREATE TABLE.
 */
export async function applySchema(db: SqlDatabase, scripts: readonly SchemaScript[]): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['schema-migrations']);
    for (const script of scripts) {
      for (const statement of splitStatements(script.sql)) await tx.query(statement);
    }
  });
}

export function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*(?:\n|$)/)
    .map((statement) => statement.trim())
    .filter((statement) => statement.length > 0);
}
