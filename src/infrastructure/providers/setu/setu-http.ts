import { providerExchange } from '../fetch-reading-again';
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
    const { response, text } = await providerExchange('setu', url, {
      method: request.method,
      headers,
      body: request.json === undefined ? undefined : JSON.stringify(request.json),
      signal: request.signal,
    });
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

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
