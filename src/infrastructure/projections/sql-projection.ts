import { RecordedEvent } from '../../application/ports/event-store.port';
import { LogEvent } from '../../domain/log-events';
import { SchemaScript } from '../sql/migrations';
import { SqlExecutor } from '../sql/sql-database';
import { DeferredWrites } from './deferred-writes';

/** What a read model's tables are: created by migrations, rebuilt when `schemaVersion` rises. */
export interface ReadModelTables {
  readonly name: string;
  /** The version of the tables `schema` creates: raise it with any change of `schema` or of what `apply` writes (a blue/green rebuild follows). */
  readonly schemaVersion: number;
  readonly schema: SchemaScript;
}

/** A read model kept in SQL, applied with its checkpoint's move (in one transaction or one statement); `apply` must be idempotent and sees only the types it `handles`. */
export interface SqlProjection<Handled extends LogEvent = LogEvent> extends ReadModelTables {
  readonly handles: ReadonlySet<Handled['type']>;
  /**
   * Its batch reads only through the batch's shares and uses nothing its writes return: the projector may then send
   * its writes with the checkpoint's move, as one statement without a transaction (decision 0159).
   */
  readonly deferrableWrites?: boolean;
  apply(event: RecordedEvent<Handled>, tx: SqlExecutor, batch: BatchScope): Promise<void>;
  /** Optional: applies a batch in fewer statements, leaving exactly the rows that one-by-one `apply` would. */
  applyBatch?(events: readonly RecordedEvent<Handled>[], tx: SqlExecutor, batch: BatchScope): Promise<void>;
  /**
   * Optional: reads what the batch needs before its transaction (as `apply` would read inside it: every statement
   * sees what was committed before it) and gives the batch's writes, or null when it writes nothing. When every
   * projection of a group plans and none writes, the checkpoint moves in one statement, without a transaction.
   */
  planBatch?(
    events: readonly RecordedEvent<Handled>[],
    db: SqlExecutor,
    batch: BatchScope,
  ): Promise<BatchWrites | null>;
}

/** A batch's writes, made in the transaction that moves the checkpoint. */
export type BatchWrites = (tx: SqlExecutor) => Promise<void>;

/** Something the projections of one batch share, made by the first that asks for it, in the batch's transaction. */
export interface BatchShare<Value> {
  create(tx: SqlExecutor): Value;
}

/**
 * What the projections of one batch keep for the ones after them (rows read once for all), for as long as the
 * batch's transaction: a batch that rolls back takes its scope with it.
 */
export class BatchScope {
  private readonly shared = new Map<BatchShare<unknown>, unknown>();

  of<Value>(share: BatchShare<Value>, tx: SqlExecutor): Value {
    // Deferred writes: the share reads before the batch's one statement, as the writes it feeds are planned.
    if (!this.shared.has(share)) this.shared.set(share, share.create(tx instanceof DeferredWrites ? tx.reads : tx));
    return this.shared.get(share) as Value;
  }

  /** The share if a projection of the batch made it; after the commit, without a transaction to read in. */
  made<Value>(share: BatchShare<Value>): Value | undefined {
    return this.shared.get(share) as Value | undefined;
  }
}

export async function applyEvents(
  projection: SqlProjection,
  events: readonly RecordedEvent[],
  tx: SqlExecutor,
  batch: BatchScope = new BatchScope(),
): Promise<void> {
  const handled = events.filter((event) => projection.handles.has(event.type));
  if (handled.length === 0) return;
  if (projection.applyBatch && handled.length > 1) {
    await projection.applyBatch(handled, tx, batch);
    return;
  }
  for (const event of handled) await projection.apply(event, tx, batch);
}

/**
 * Each projection's writes for the batch, planned before its transaction; null when one of them cannot plan (the
 * batch is then applied in the transaction, as `applyEvents` does).
 */
export async function plannedWrites(
  projections: readonly SqlProjection[],
  events: readonly RecordedEvent[],
  db: SqlExecutor,
  batch: BatchScope,
): Promise<BatchWrites[] | null> {
  if (!projections.every((projection) => projection.planBatch !== undefined)) return null;
  const writes: BatchWrites[] = [];
  for (const projection of projections) {
    const handled = events.filter((event) => projection.handles.has(event.type));
    if (handled.length === 0) continue;
    const planned = await projection.planBatch?.(handled, db, batch);
    if (planned) writes.push(planned);
  }
  return writes;
}

/** Whether every projection with events in the batch lets its writes be deferred (decision 0159). */
export function writesDeferrable(projections: readonly SqlProjection[], events: readonly RecordedEvent[]): boolean {
  return projections.every(
    (projection) => projection.deferrableWrites === true || !events.some((event) => projection.handles.has(event.type)),
  );
}
