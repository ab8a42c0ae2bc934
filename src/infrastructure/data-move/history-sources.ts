import { HistorySource, HistorySourceRef, HistorySources } from '../../application/ports/history-move.port';
import { checkHistoryFile, readHistoryFile } from './history-lines';
import { PgliteEventReader } from './pglite-event-reader';

export class FileHistorySources implements HistorySources {
  async open(source: HistorySourceRef): Promise<HistorySource> {
    if (source.kind === 'pglite-folder') return PgliteEventReader.open(source.path);
    return {
      count: () => checkHistoryFile(source.path),
      events: () => readHistoryFile(source.path),
      close: async () => undefined,
    };
  }
}
