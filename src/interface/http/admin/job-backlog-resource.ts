import type { JobBacklog } from '../../../application/operations/back-office-queries';

export const jobBacklogResource = (backlog: JobBacklog) => ({
  as_of: backlog.asOf,
  open: backlog.open,
  due: backlog.due,
  kinds: backlog.kinds.map((line) => ({
    kind: line.kind,
    open: line.open,
    due: line.due,
    retrying: line.retrying,
    running: line.running,
    oldest_due_at: line.oldestDueAt,
    last_error: line.lastError,
  })),
});
