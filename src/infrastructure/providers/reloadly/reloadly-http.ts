import { ProviderNotSentError, ProviderUnavailableError } from '../../../application/ports/provider-gateway.port';
import { fetchReadingAgain } from '../fetch-reading-again';
import { ReloadlyRateLimit } from './reloadly-rate-limit';
import { ACCEPT_HEADER, ReloadlyApi, ReloadlySettings, baseUrlOf } from './reloadly-settings';
import { ReloadlyTokens } from './reloadly-tokens';

export interface ReloadlyAnswer {
  status: number;
  body: unknown;
  errorCode: string | null;
  message: string | null;
  retryAfterMs: number | null;
}

export interface ReloadlyRequest {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | number | undefined>;
  json?: string;
  signal?: AbortSignal;
}

const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
/** The 401s Reloadly documents for a token it no longer takes: a new token is fetched and the call made once more. */
const TOKEN_REFUSED = new Set(['TOKEN_EXPIRED', 'INVALID_TOKEN']);

/**
 * Calls the APIs with a token of the right audience; a 429 pauses the API (ReloadlyRateLimit). A 401 TOKEN_EXPIRED or
 * INVALID_TOKEN precedes any reading of the request, so the same call, even a send, is made once more with a new token
 * (docs/decisions/0120-reloadly-absence-after-the-horizon.md).
 */
export class ReloadlyHttp {
  constructor(
    private readonly settings: ReloadlySettings,
    readonly tokens: ReloadlyTokens,
    readonly rateLimit = new ReloadlyRateLimit(),
  ) {}

  async call(api: ReloadlyApi, request: ReloadlyRequest): Promise<ReloadlyAnswer> {
    const audience = baseUrlOf(this.settings, api);
    this.rateLimit.check(api, `${request.method} ${request.path}`);
    const token = await this.token(audience);
    const first = await this.send(api, request, token);
    if (first.status !== 401 || first.errorCode === null || !TOKEN_REFUSED.has(first.errorCode)) return first;
    this.tokens.invalidate(audience, token);
    return this.send(api, request, await this.token(audience));
  }

  private async token(audience: string): Promise<string> {
    try {
      return await this.tokens.token(audience);
    } catch (error) {
      if (error instanceof ProviderUnavailableError) throw new ProviderNotSentError(`${error.message}; not sent`);
      throw error;
    }
  }

  private async send(api: ReloadlyApi, request: ReloadlyRequest, token: string): Promise<ReloadlyAnswer> {
    const url = new URL(`${baseUrlOf(this.settings, api)}${request.path}`);
    for (const [name, value] of Object.entries(request.query ?? {}))
      if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { accept: ACCEPT_HEADER[api], authorization: `Bearer ${token}` };
    if (request.json !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    let text: string;
    try {
      ({ response, text } = await fetchReadingAgain(url, {
        method: request.method,
        headers,
        body: request.json,
        signal: request.signal,
      }));
    } catch (error) {
      const what = `reloadly: ${request.method} ${url.pathname}`;
      if (request.signal?.aborted)
        throw new ProviderUnavailableError(`${what} got no answer (the call was abandoned at its deadline)`);
      const code = connectionErrorCode(error);
      if (code && NOT_CONNECTED.has(code)) throw new ProviderNotSentError(`${what} was not sent (${code})`);
      throw new ProviderUnavailableError(`${what} got no answer (${(error as Error).message})`);
    }
    const retryAfterMs = response.status === 429 ? this.rateLimit.limited(api, response.headers) : null;
    const body = parseJson(text);
    const fields = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    return {
      status: response.status,
      body,
      errorCode: response.ok || typeof fields.errorCode !== 'string' ? null : fields.errorCode,
      message: typeof fields.message === 'string' ? fields.message : null,
      retryAfterMs,
    };
  }
}

function connectionErrorCode(error: unknown): string | null {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  return typeof cause?.code === 'string' ? cause.code : null;
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
