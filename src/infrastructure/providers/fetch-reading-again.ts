import { ProviderNotSentError, ProviderUnavailableError } from '../../application/ports/provider-gateway.port';

/**
 * One HTTP exchange with an upstream, body read whole. A GET that failed before its deadline (often a keep-alive
 * connection just closed) is made once more; a POST never, since a repeated order could be performed twice.
 */
export async function fetchReadingAgain(
  url: URL,
  init: RequestInit & { method: 'GET' | 'POST' },
): Promise<{ response: Response; text: string }> {
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(url, init);
      return { response, text: await response.text() };
    } catch (error) {
      if (init.method !== 'GET' || attempt > 1 || init.signal?.aborted) throw error;
    }
  }
}

/** Connection errors that mean the request never left: no connection was made. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** fetchReadingAgain for a provider: no answer throws ProviderUnavailableError; not sent at all ProviderNotSentError. */
export async function providerExchange(
  provider: string,
  url: URL,
  init: RequestInit & { method: 'GET' | 'POST' },
): Promise<{ response: Response; text: string }> {
  try {
    return await fetchReadingAgain(url, init);
  } catch (error) {
    const what = `${provider}: ${init.method} ${url.pathname}`;
    if (init.signal?.aborted)
      throw new ProviderUnavailableError(`${what} got no answer (the call was abandoned at its deadline)`);
    const code = connectionErrorCode(error);
    if (code && NOT_CONNECTED.has(code)) throw new ProviderNotSentError(`${what} was not sent (${code})`);
    throw new ProviderUnavailableError(
      `${what} got no answer (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}

/** The system error code under fetch's "fetch failed" (undici puts it on the cause). */
function connectionErrorCode(error: unknown): string | null {
  const cause: unknown = error instanceof Error ? error.cause : null;
  return typeof cause === 'object' && cause !== null && 'code' in cause && typeof cause.code === 'string'
    ? cause.code
    : null;
}
