import { ExportOptions, ImportOutcome, StepProgress } from '../../../application/data-move/history-move';
import { ServiceConfig } from '../../../config/service-config';
import { ImportSource } from './data-commands';

/** Where the PostgreSQL server an embedded-mode command starts reports what it does (stderr: stdout holds the export). */
export interface ServerLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** What `data export` and `data import` run: the history move over the configured store, as the CLI's composition builds it. */
export interface DataMove {
  /** Writes every event of the store, in global order, one history line each; returns how many. */
  exportHistory(writeLine: (line: string) => Promise<void>, progress: StepProgress, options: ExportOptions): Promise<number>;
  importHistory(source: ImportSource, progress: StepProgress): Promise<ImportOutcome>;
}

export type OpenDataMove = (config: ServiceConfig, serverLog: ServerLog) => DataMove;
