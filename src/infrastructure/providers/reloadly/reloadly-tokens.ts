import { ProviderUnavailableError } from '../../../application/ports/provider-gateway.port';
import { ReloadlySettings } from './reloadly-settings';

const TOKEN_REQUEST_TIMEOUT_MS = 10_000;
/** A token is replaced this long before it expires (at most a tenth of its lifetime), so no call carries a token about to lapse. */
const REFRESH_MARGIN_MS = 60_000;
const DEFAULT_LIFETIME_SECONDS = 3600;

interface CachedToken {
  token: string;
  refreshAt: number;
}

/**
 * OAuth2 client-credentials tokens, one per audience (each Reloadly API is its own audience).
 * A token is kept until shortly before it expires; concurrent callers share one token request;
 * a token the API refused (401) is dropped so that the next call fetches a new one.
 */
export class ReloadlyTokens {
  private readonly cached = new Map<string, CachedToken>();
  private readonly pending = new Map<string, Promise<string>>();
  private requested = 0;

  constructor(
    private readonly settings: Pick<ReloadlySettings, 'clientId' | 'clientSecret' | 'authUrl'>,
    private readonly now: () => number = Date.now,
  ) {}

  get tokensRequested(): number {
    return this.requested;
  }

  async token(audience: string): Promise<string> {
    const cached = this.cached.get(audience);
    if (cached && this.now() < cached.refreshAt) return cached.token;
    let pending = this.pending.get(audience);
    if (!pending) {
      pending = this.fetchToken(audience).finally(() => this.pending.delete(audience));
      this.pending.set(audience, pending);
    }
    return pending;
  }

  invalidate(audience: string, token: string): void {
    if (this.cached.get(audience)?.token === token) this.cached.delete(audience);
  }

  private async fetchToken(audience: string): Promise<string> {
    this.requested++;
    const url = `${this.settings.authUrl.replace(/\/+$/, '')}/oauth/token`;
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({
          client_id: this.settings.clientId,
          client_secret: this.settings.clientSecret,
          grant_type: 'client_credentials',
          audience,
        }),
        signal: AbortSignal.timeout(TOKEN_REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      throw new ProviderUnavailableError(
        `reloadly: the token endpoint could not be reached (${(error as Error).message})`,
      );
    }
    const text = await response.text();
    if (!response.ok)
      throw new ProviderUnavailableError(
        `reloadly: the token endpoint refused the credentials for ${audience} (HTTP ${response.status}${errorCodeIn(text)})`,
      );
    const body = parseObject(text);
    const token = body?.access_token;
    if (typeof token !== 'string' || token === '')
      throw new ProviderUnavailableError('reloadly: the token endpoint answered without an access_token');
    // Without a lifetime the token is kept an hour; a 401 before that replaces it anyway.
    const expiresIn =
      typeof body?.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : DEFAULT_LIFETIME_SECONDS;
    const lifetimeMs = expiresIn * 1000;
    this.cached.set(audience, {
      token,
      refreshAt: this.now() + lifetimeMs - Math.min(REFRESH_MARGIN_MS, lifetimeMs / 10),
    });
    return token;
  }
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function errorCodeIn(text: string): string {
  const code = parseObject(text)?.errorCode;
  return typeof code === 'string' ? `, ${code}` : '';
}
