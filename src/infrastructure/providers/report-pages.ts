import { ProviderUnavailableError } from '../../application/ports/provider-gateway.port';

/**
 * How long one page of a provider's transaction report may take. Each page has its own: a report
 * of three busy days is many pages, and one budget for all of them failed long reads that were
 * progressing (docs/decisions/0123-scheduled-reconciliation.md).
 */
export const REPORT_PAGE_TIMEOUT_MS = 30_000;

function pageSignal(pageTimeoutMs: number, signal?: AbortSignal): AbortSignal {
  const timeout = AbortSignal.timeout(pageTimeoutMs);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

/**
 * Reads one page under its own deadline; a page that took longer is named in the error (which
 * page of what), so a report that fails half way says where.
 */
export async function readPage<T>(
  what: { provider: string; path: string; page: number; pageTimeoutMs: number },
  signal: AbortSignal | undefined,
  read: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const deadline = pageSignal(what.pageTimeoutMs, signal);
  try {
    return await read(deadline);
  } catch (error) {
    if (!deadline.aborted || signal?.aborted) throw error;
    throw new ProviderUnavailableError(
      `${what.provider}: page ${what.page} of GET ${what.path} got no answer within ${what.pageTimeoutMs} ms (each page has its own deadline)`,
    );
  }
}
