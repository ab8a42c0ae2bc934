import { ProviderUnavailableError } from '../../../application/ports/provider-gateway.port';
import { ProviderTokens } from '../provider-tokens';
import { ReloadlySettings } from './reloadly-settings';

const TOKEN_REQUEST_TIMEOUT_MS = 10_000;
const DEFAULT_LIFETIME_SECONDS = 3600;

/** OAuth2 client-credentials tokens, one per audience (each Reloadly API is its own audience). */
export class ReloadlyTokens extends ProviderTokens {
  constructor(
    private readonly settings: Pick<ReloadlySettings, 'clientId' | 'clientSecret' | 'authUrl'>,
    now: () => number = Date.now,
  ) {
    super(now);
  }

  protected async request(audience: string): Promise<{ token: string; lifetimeSeconds: number }> {
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
    return { token, lifetimeSeconds: expiresIn };
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
