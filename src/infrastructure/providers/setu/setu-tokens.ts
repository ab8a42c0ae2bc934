import { ProviderUnavailableError } from '../../../application/ports/provider-gateway.port';
import { retryAfterMsOf } from '../retry-after';
import { errorOf, objectOf, stringOf } from './setu-records';
import { PARTNER_HEADER, SETU_PATHS, SetuSettings } from './setu-settings';

const TOKEN_REQUEST_TIMEOUT_MS = 10_000;
const REFRESH_MARGIN_MS = 60_000;
/** Setu's tokens live 600 s in its examples; without `expiresIn` that is assumed. */
const DEFAULT_LIFETIME_SECONDS = 600;

/**
 * Setu's bearer tokens: `POST /api/v2/auth/token` with the client id and secret. One token is
 * kept until shortly before it expires; concurrent callers share one request; a token the API
 * refused (401) is dropped so that the next call fetches a new one.
 */
export class SetuTokens {
  private cached: { token: string; refreshAt: number } | null = null;
  private pending: Promise<string> | null = null;
  private requested = 0;

  constructor(
    private readonly settings: Pick<SetuSettings, 'url' | 'clientId' | 'clientSecret' | 'partnerId'>,
    private readonly now: () => number = Date.now,
  ) {}

  get tokensRequested(): number {
    return this.requested;
  }

  token(): Promise<string> {
    if (this.cached && this.now() < this.cached.refreshAt) return Promise.resolve(this.cached.token);
    this.pending ??= this.fetchToken().finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  invalidate(token: string): void {
    if (this.cached?.token === token) this.cached = null;
  }

  private async fetchToken(): Promise<string> {
    this.requested++;
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${this.settings.url}${SETU_PATHS.token}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          [PARTNER_HEADER]: this.settings.partnerId,
        },
        body: JSON.stringify({ clientID: this.settings.clientId, secret: this.settings.clientSecret }),
        signal: AbortSignal.timeout(TOKEN_REQUEST_TIMEOUT_MS),
      });
      text = await response.text();
    } catch (error) {
      throw new ProviderUnavailableError(`setu: the token endpoint could not be reached (${(error as Error).message})`);
    }
    const body = parse(text);
    if (!response.ok) {
      const code = errorOf(body).code;
      if (response.status === 429)
        throw new ProviderUnavailableError('setu: the token endpoint answered 429 (too many requests)', {
          retryAfterMs: retryAfterMsOf(response.headers.get('retry-after'), Date.now()),
        });
      throw new ProviderUnavailableError(
        `setu: the token endpoint refused the credentials (HTTP ${response.status}${code ? `, ${code}` : ''})`,
      );
    }
    const fields = objectOf(body);
    const token = stringOf(fields.token);
    if (!token) throw new ProviderUnavailableError('setu: the token endpoint answered without a token');
    const expiresIn =
      typeof fields.expiresIn === 'number' && fields.expiresIn > 0 ? fields.expiresIn : DEFAULT_LIFETIME_SECONDS;
    const lifetimeMs = expiresIn * 1000;
    this.cached = { token, refreshAt: this.now() + lifetimeMs - Math.min(REFRESH_MARGIN_MS, lifetimeMs / 10) };
    return token;
  }
}

function parse(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return null;
  }
}
