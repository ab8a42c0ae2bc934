import type { JobBacklog } from '../../../application/operations/back-office-queries';

export interface JobKindBacklogResource {
  kind: string;
  open: number;
  due: number;
  retrying: number;
  running: number;
  oldest_due_at: string | null;
  last_error: string | null;
}

export interface JobBacklogResource {
  as_of: string;
  open: number;
  due: number;
  kinds: JobKindBacklogResource[];
}

export const jobBacklogResource = (backlog: JobBacklog): JobBacklogResource => ({
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
