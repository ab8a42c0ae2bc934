import { HistoryMove } from '../../application/data-move/history-move';
import { FileHistorySources } from '../../infrastructure/data-move/history-sources';
import { ConfiguredHistoryStores } from '../../infrastructure/data-move/configured-history-stores';
import { historyLine } from '../../infrastructure/data-move/history-lines';
import { SystemClock } from '../../infrastructure/clock/system-clock';
import { OpenDataMove } from '../../interface/cli/data/data-move';
import { readModelProjections } from '../../infrastructure/read-models/read-model-projections';

export const openDataMove: OpenDataMove = (config, serverLog) => {
  const move = new HistoryMove(
    new ConfiguredHistoryStores(config, serverLog, readModelProjections()),
    new FileHistorySources(),
    new SystemClock(),
    {
      stuckOrderAfterMs: config.stuckOrderAfterMs,
    },
  );
  return {
    exportHistory: (writeLine, progress, options) =>
      move.exportHistory((event) => writeLine(historyLine(event)), progress, options),
    importHistory: (source, progress) => move.importHistory(source, progress),
  };
};
