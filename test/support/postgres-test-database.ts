import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

export interface TestDatabase {
  connectionString: string;
  drop(): Promise<void>;
}

const adminUrl = (): string => process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function asAdmin(sql: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Creates an empty database with a unique name on the test server and returns its URL.
 * `drop()` removes it, ending any connection still open to it.
 */
export async function createTestDatabase(prefix: string): Promise<TestDatabase> {
  const safePrefix = prefix
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .slice(0, 40);
  const name = `${safePrefix}_${randomBytes(6).toString('hex')}`;
  // template0 is never connected to, so parallel CREATE DATABASE calls cannot fail on a busy template.
  await asAdmin(`CREATE DATABASE "${name}" TEMPLATE template0`);
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    connectionString: url.toString(),
    async drop(): Promise<void> {
      if (dropped) return;
      dropped = true;
      await asAdmin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}
