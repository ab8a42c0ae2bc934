import { Client } from 'pg';

/** The server the probes make their databases on (the bench's own, or the tests'). */
export const ADMIN_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Runs one statement as the server's administrator (CREATE DATABASE, DROP DATABASE). */
export async function asAdmin(sql: string): Promise<void> {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A new empty database for one probe, and its address. */
export async function probeDatabase(prefix: string): Promise<{ name: string; url: string }> {
  const name = `${prefix}_${Date.now()}`;
  await asAdmin(`CREATE DATABASE ${name} TEMPLATE template0`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}
