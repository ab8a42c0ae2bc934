import { ProviderUnavailableError } from '../../../application/ports/provider-gateway.port';
import { ProviderTokens } from '../provider-tokens';
import { retryAfterMsOf } from '../retry-after';
import { errorOf, objectOf, stringOf } from './setu-records';
import { PARTNER_HEADER, SETU_PATHS, SetuSettings } from './setu-settings';

const TOKEN_REQUEST_TIMEOUT_MS = 10_000;
/** Setu's tokens live 600 s in its examples; without `expiresIn` that is assumed. */
const DEFAULT_LIFETIME_SECONDS = 600;

/** Setu's bearer tokens: `POST /api/v2/auth/token` with the client id and secret; one audience. */
export class SetuTokens extends ProviderTokens {
  constructor(
    private readonly settings: Pick<SetuSettings, 'url' | 'clientId' | 'clientSecret' | 'partnerId'>,
    now: () => number = Date.now,
  ) {
    super(now);
  }

  protected async request(): Promise<{ token: string; lifetimeSeconds: number }> {
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
    return { token, lifetimeSeconds: expiresIn };
  }
}

function parse(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return null;
  }
}
