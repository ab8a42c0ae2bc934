import { RecordedEvent } from '../../application/ports/event-store.port';
import { LogEvent } from '../../domain/log-events';
import { SchemaScript } from '../sql/migrations';
import { SqlExecutor } from '../sql/sql-database';

/**
 * A read model kept in SQL. `apply` runs inside the transaction that also moves the
 * projection's checkpoint, and must give the same rows when an event is applied twice.
 * It is given only the events of the types it `handles`, so it is typed by them (`Handled`).
 */
export interface SqlProjection<Handled extends LogEvent = LogEvent> {
  readonly name: string;
  /**
   * The version of the tables `schema` creates. Raise it with every change of `schema` or of what
   * `apply` writes: a deployment with a higher version rebuilds the read model blue/green by itself.
   */
  readonly schemaVersion: number;
  readonly schema: SchemaScript;
  readonly handles: ReadonlySet<Handled['type']>;
  apply(event: RecordedEvent<Handled>, tx: SqlExecutor): Promise<void>;
  /**
   * Optional: applies a batch of events (all of handled types, in log order) in fewer
   * statements. It must leave exactly the rows that applying them one by one would.
   */
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
