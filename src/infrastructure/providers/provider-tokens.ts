const REFRESH_MARGIN_MS = 60_000;

/** Bearer tokens by audience, replaced shortly before they expire; callers share one request; a token refused with 401 is dropped. */
export abstract class ProviderTokens {
  private readonly cached = new Map<string, { token: string; refreshAt: number }>();
  private readonly pending = new Map<string, Promise<string>>();
  private requested = 0;

  constructor(private readonly now: () => number) {}

  get tokensRequested(): number {
    return this.requested;
  }

  token(audience = ''): Promise<string> {
    const cached = this.cached.get(audience);
    if (cached && this.now() < cached.refreshAt) return Promise.resolve(cached.token);
    let pending = this.pending.get(audience);
    if (!pending) {
      pending = this.fetchToken(audience).finally(() => this.pending.delete(audience));
      this.pending.set(audience, pending);
    }
    return pending;
  }

  /** Forgets a token the API refused, unless a newer one has replaced it already. */
  invalidate(token: string, audience = ''): void {
    if (this.cached.get(audience)?.token === token) this.cached.delete(audience);
  }

  /** Asks the provider for a new token; `lifetimeSeconds` is its own or the provider's default. */
  protected abstract request(audience: string): Promise<{ token: string; lifetimeSeconds: number }>;

  private async fetchToken(audience: string): Promise<string> {
    this.requested++;
    const { token, lifetimeSeconds } = await this.request(audience);
    const lifetimeMs = lifetimeSeconds * 1000;
    this.cached.set(audience, {
      token,
      refreshAt: this.now() + lifetimeMs - Math.min(REFRESH_MARGIN_MS, lifetimeMs / 10),
    });
    return token;
  }
}
