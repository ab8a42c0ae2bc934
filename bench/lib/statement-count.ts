import { BENCH_ADMIN_TOKEN } from './service';

const SERIES = 'partner_service_sql_statements_total ';

/** The service's count of statements sent to PostgreSQL so far (all its threads), from /metrics; null if unreadable. */
export async function sqlStatementsSoFar(url: string): Promise<number | null> {
  try {
    const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}` } });
    if (!response.ok) return null;
    const line = (await response.text()).split('\n').find((candidate) => candidate.startsWith(SERIES));
    return line === undefined ? null : Number(line.slice(SERIES.length));
  } catch {
    return null;
  }
}
