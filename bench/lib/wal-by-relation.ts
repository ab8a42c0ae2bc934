import { Client } from 'pg';

/**
 * The WAL one database wrote over a window, by the relation each record changed, with its full-page images,
 * read with pg_walinspect (PostgreSQL 15's contrib). A checkpoint starts the window, so every relation pays the
 * first change of each page it touches, as it does after each checkpoint of a long run.
 */
export interface WalWindow {
  /** Ends the window and returns one line per relation, heaviest first, with figures per `per` (topups). */
  close(per: number): Promise<string>;
}

interface RelationWal {
  records: number;
  images: number;
  bytes: number;
}

/** `blkref #0: rel 1663/16384/16385 fork main blk 7 FPW` (the block references of one WAL record). */
const BLOCK_REF = /rel (\d+)\/(\d+)\/(\d+)(?: fork \w+)? blk \d+( FPW| \(FPW\))?/g;

export async function openWalWindow(databaseUrl: string): Promise<WalWindow> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query('CREATE EXTENSION IF NOT EXISTS pg_walinspect');
  await client.query('CHECKPOINT');
  const { rows } = await client.query<{ lsn: string; db: string }>(
    `SELECT pg_current_wal_flush_lsn()::text AS lsn, (SELECT oid::text FROM pg_database WHERE datname = current_database()) AS db`,
  );
  const { lsn: start, db } = rows[0];
  return {
    async close(per: number): Promise<string> {
      try {
        const end = (await client.query<{ lsn: string }>('SELECT pg_current_wal_flush_lsn()::text AS lsn')).rows[0].lsn;
        const records = await client.query<{ length: number; block_ref: string | null }>(
          `SELECT record_length AS length, block_ref FROM pg_get_wal_records_info($1::pg_lsn, $2::pg_lsn)`,
          [start, end],
        );
        const names = await relationNames(client);
        const byRelation = new Map<string, RelationWal>();
        let total = { records: 0, images: 0, bytes: 0 };
        for (const record of records.rows) {
          const refs = [...(record.block_ref ?? '').matchAll(BLOCK_REF)].filter((ref) => ref[2] === db);
          if (refs.length === 0) continue;
          total = { records: total.records + 1, images: total.images, bytes: total.bytes + record.length };
          refs.forEach((ref, index) => {
            const name = names.get(ref[3]) ?? `relfilenode ${ref[3]}`;
            const entry = byRelation.get(name) ?? { records: 0, images: 0, bytes: 0 };
            const image = ref[4] ? 1 : 0;
            total.images += image;
            // A record's bytes go to its first block's relation.
            byRelation.set(name, {
              records: entry.records + (index === 0 ? 1 : 0),
              images: entry.images + image,
              bytes: entry.bytes + (index === 0 ? record.length : 0),
            });
          });
        }
        const f = (value: number, digits: number) => (value / Math.max(per, 1)).toFixed(digits).padStart(9);
        return [
          `WAL per topup from a checkpoint on, by relation (records, full-page images, bytes), ${per} topups:`,
          ...[...byRelation.entries()]
            .sort((a, b) => b[1].bytes - a[1].bytes)
            .map(([name, wal]) => `  ${name.padEnd(44)}${f(wal.records, 2)}${f(wal.images, 3)}${f(wal.bytes, 0)}`),
          `  ${'all relations of the database'.padEnd(44)}${f(total.records, 2)}${f(total.images, 3)}${f(total.bytes, 0)}`,
        ].join('\n');
      } finally {
        await client.end();
      }
    },
  };
}

async function relationNames(client: Client): Promise<Map<string, string>> {
  const { rows } = await client.query<{ node: string; name: string }>(
    `SELECT pg_relation_filenode(oid)::text AS node, relname AS name FROM pg_class WHERE pg_relation_filenode(oid) IS NOT NULL`,
  );
  return new Map(rows.map((row) => [row.node, row.name]));
}
