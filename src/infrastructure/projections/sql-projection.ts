import { RecordedEvent } from '../../application/ports/event-store.port';
import { SchemaScript } from '../sql/migrations';
import { SqlExecutor } from '../sql/sql-database';

/**
 * A read model kept in SQL. `apply` runs inside the transaction that also moves the
 * projection's checkpoint, and must give the same rows when an event is applied twice.
 */
export interface SqlProjection {
  readonly name: string;
  readonly schema: SchemaScript;
  readonly handles: ReadonlySet<string>;
  apply(event: RecordedEvent, tx: SqlExecutor): Promise<void>;
}
