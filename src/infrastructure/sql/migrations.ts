import { SqlDatabase } from './sql-database';

/** A schema script safe to run again; the numbered migrations (schema/schema-migrations.ts) are made of these. */
export interface SchemaScript {
  name: string;
  sql: string;
}

/** Applies the scripts in one transaction under an advisory lock, so processes starting together do not race on CREATE TABLE. */
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
