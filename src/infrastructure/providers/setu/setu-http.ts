import { fetchReadingAgain } from '../fetch-reading-again';
import { ProviderNotSentError, ProviderUnavailableError } from '../../../application/ports/provider-gateway.port';
import { retryAfterMsOf } from '../retry-after';
import { SetuEnvelope, envelopeOf } from './setu-envelope';
import { PARTNER_HEADER, SetuSettings } from './setu-settings';
import { SetuTokens } from './setu-tokens';

export interface SetuAnswer {
  status: number;
  envelope: SetuEnvelope;
  errorCode: string | null;
  message: string | null;
  retryAfterMs: number | null;
}

interface SetuRequest {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | undefined>;
  json?: unknown;
  signal?: AbortSignal;
}

const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * Calls Setu with a bearer token and the partner header; a 401 drops the token and retries once. No answer throws
 * ProviderUnavailableError; not sent at all (no token, connection refused) ProviderNotSentError.
 */
export class SetuHttp {
  constructor(
    private readonly settings: Pick<SetuSettings, 'url' | 'partnerId'>,
    readonly tokens: SetuTokens,
  ) {}

  async call(request: SetuRequest): Promise<SetuAnswer> {
    const token = await this.token(request);
    const first = await this.send(request, token);
    if (first.status !== 401) return first;
    this.tokens.invalidate(token);
    return this.send(request, await this.token(request));
  }

  private async token(request: SetuRequest): Promise<string> {
    try {
      return await this.tokens.token();
    } catch (error) {
      if (!(error instanceof ProviderUnavailableError) || error instanceof ProviderNotSentError) throw error;
      throw new ProviderNotSentError(`${error.message}; ${request.method} ${request.path} was not sent`, {
        retryAfterMs: error.retryAfterMs,
      });
    }
  }

  private async send(request: SetuRequest, token: string): Promise<SetuAnswer> {
    const url = new URL(`${this.settings.url}${request.path}`);
    for (const [name, value] of Object.entries(request.query ?? {}))
      if (value !== undefined) url.searchParams.set(name, value);
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Bearer ${token}`,
      [PARTNER_HEADER]: this.settings.partnerId,
    };
    if (request.json !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    let text: string;
    try {
      ({ response, text } = await fetchReadingAgain(url, {
        method: request.method,
        headers,
        body: request.json === undefined ? undefined : JSON.stringify(request.json),
        signal: request.signal,
      }));
    } catch (error) {
      const what = `setu: ${request.method} ${url.pathname}`;
      if (request.signal?.aborted)
        throw new ProviderUnavailableError(`${what} got no answer (the call was abandoned at its deadline)`);
      const code = connectionErrorCode(error);
      if (code && NOT_CONNECTED.has(code)) throw new ProviderNotSentError(`${what} was not sent (${code})`);
      throw new ProviderUnavailableError(`${what} got no answer (${(error as Error).message})`);
    }
    const envelope = envelopeOf(parseJson(text), response.status);
    return {
      status: response.status,
      envelope,
      errorCode: envelope.kind === 'error' ? envelope.code : null,
      message: envelope.kind === 'error' ? envelope.message : null,
      retryAfterMs: response.status === 429 ? retryAfterMsOf(response.headers.get('retry-after'), Date.now()) : null,
    };
  }
}

function connectionErrorCode(error: unknown): string | null {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  return typeof cause?.code === 'string' ? cause.code : null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
