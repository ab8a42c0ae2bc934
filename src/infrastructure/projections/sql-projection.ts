import { RecordedEvent } from '../../application/ports/event-store.port';
import { LogEvent } from '../../domain/log-events';
import { SchemaScript } from '../sql/migrations';
import { SqlExecutor } from '../sql/sql-database';

/** What a read model's tables are: created by migrations, rebuilt when `schemaVersion` rises. */
export interface ReadModelTables {
  readonly name: string;
  /** The version of the tables `schema` creates: raise it with any change of `schema` or of what `apply` writes (a blue/green rebuild follows). */
  readonly schemaVersion: number;
  readonly schema: SchemaScript;
}

/** A read model kept in SQL, applied in the checkpoint's transaction; `apply` must be idempotent and sees only the types it `handles`. */
export interface SqlProjection<Handled extends LogEvent = LogEvent> extends ReadModelTables {
  readonly handles: ReadonlySet<Handled['type']>;
  apply(event: RecordedEvent<Handled>, tx: SqlExecutor): Promise<void>;
  /** Optional: applies a batch in fewer statements, leaving exactly the rows that one-by-one `apply` would. */
  applyBatch?(events: readonly RecordedEvent<Handled>[], tx: SqlExecutor): Promise<void>;
}

export async function applyEvents(
  projection: SqlProjection,
  events: readonly RecordedEvent[],
  tx: SqlExecutor,
): Promise<void> {
  const handled = events.filter((event) => projection.handles.has(event.type));
  if (handled.length === 0) return;
  if (projection.applyBatch && handled.length > 1) {
    await projection.applyBatch(handled, tx);
    return;
  }
  for (const event of handled) await projection.apply(event, tx);
}
