import { fetchReadingAgain } from '../fetch-reading-again';
import { ProviderUnavailableError } from '../../../application/ports/provider-gateway.port';
import { errorOf } from './setu-records';
import { PARTNER_HEADER, SetuSettings } from './setu-settings';
import { SetuTokens } from './setu-tokens';

/** An HTTP answer of Setu's API, whatever its status. */
export interface SetuAnswer {
  status: number;
  body: unknown;
  /** The `error.code` of an error answer, when there is one. */
  errorCode: string | null;
  message: string | null;
}

export interface SetuRequest {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | undefined>;
  json?: unknown;
  signal?: AbortSignal;
}

/**
 * Calls Setu with a bearer token and the partner header. A 401 drops the token and the call is
 * made once more with a new one (a 401 is answered before anything is processed); a second 401
 * is returned as it is. A request that got no answer (network error, abort) throws
 * ProviderUnavailableError.
 */
export class SetuHttp {
  constructor(
    private readonly settings: Pick<SetuSettings, 'url' | 'partnerId'>,
    readonly tokens: SetuTokens,
  ) {}

  async call(request: SetuRequest): Promise<SetuAnswer> {
    const token = await this.tokens.token();
    const first = await this.send(request, token);
    if (first.status !== 401) return first;
    this.tokens.invalidate(token);
    return this.send(request, await this.tokens.token());
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
      const reason = request.signal?.aborted ? 'the call was abandoned at its deadline' : (error as Error).message;
      throw new ProviderUnavailableError(`setu: ${request.method} ${url.pathname} got no answer (${reason})`);
    }
    const body = parseJson(text);
    const error = response.ok ? { code: null, message: null } : errorOf(body);
    return { status: response.status, body, errorCode: error.code, message: error.message };
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
