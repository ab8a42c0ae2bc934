import { ExportOptions, ImportOutcome, StepProgress } from '../../../application/data-move/history-move';
import { ServiceConfig } from '../../../config/service-config';
import { ImportSource } from './data-commands';

/** Where the PostgreSQL server an embedded-mode command starts reports what it does (stderr: stdout holds the export). */
export interface ServerLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface DataMove {
  exportHistory(writeLine: (line: string) => Promise<void>, progress: StepProgress, options: ExportOptions): Promise<number>;
  importHistory(source: ImportSource, progress: StepProgress): Promise<ImportOutcome>;
}

export type OpenDataMove = (config: ServiceConfig, serverLog: ServerLog) => DataMove;
