import { PUBLIC_STATUS, PublicStatus, TransactionStatus } from '../../domain/transaction/transaction.decider';

/** `rm_orders` filters for each status a partner sees, built from the domain's PUBLIC_STATUS so that lists and views agree. */
export function publicStatusClauses(): Readonly<Record<PublicStatus, string>> {
  const clauses: Record<PublicStatus, string[]> = { PENDING: [], SUCCESS: [], FAILED: [] };
  for (const [status, shown] of Object.entries(PUBLIC_STATUS) as [
    TransactionStatus,
    (typeof PUBLIC_STATUS)['NONE'],
  ][]) {
    if (shown.unrefunded === shown.refunded) clauses[shown.unrefunded].push(`status = '${status}'`);
    else {
      clauses[shown.unrefunded].push(`(status = '${status}' AND refunded_at IS NULL)`);
      clauses[shown.refunded].push(`(status = '${status}' AND refunded_at IS NOT NULL)`);
    }
  }
  return {
    PENDING: `(${clauses.PENDING.join(' OR ')})`,
    SUCCESS: `(${clauses.SUCCESS.join(' OR ')})`,
    FAILED: `(${clauses.FAILED.join(' OR ')})`,
  };
}
