import { ProviderNotSentError, ProviderUnavailableError } from '../../../application/ports/provider-gateway.port';
import { providerExchange } from '../fetch-reading-again';
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

/** The 401s Reloadly documents for a token it no longer takes: a new token is fetched and the call made once more. */
const TOKEN_REFUSED = new Set(['TOKEN_EXPIRED', 'INVALID_TOKEN']);

/** Calls the APIs with a token of the right audience; a 429 pauses the API, a refused token is renewed and the call made once more (decision 0120). */
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
    this.tokens.invalidate(token, audience);
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
    const { response, text } = await providerExchange('reloadly', url, {
      method: request.method,
      headers,
      body: request.json,
      signal: request.signal,
    });
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

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
