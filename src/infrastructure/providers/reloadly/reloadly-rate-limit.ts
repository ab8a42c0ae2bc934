import { ProviderNotSentError } from '../../../application/ports/provider-gateway.port';
import { ReloadlyApi } from './reloadly-settings';

/** Without a reset time from Reloadly, a first 429 pauses the API this long, doubling while 429s follow. */
const FIRST_PAUSE_MS = 2_000;
const LONGEST_BACK_OFF_MS = 60_000;
/** A reset Reloadly announces is honoured up to this far ahead (a date far off is taken as a mistake, not a ban). */
const LONGEST_TOLD_PAUSE_MS = 60 * 60_000;

/** Reloadly's 429, per API and process: no call until its reset (else a back-off); a call refused meanwhile is not sent. */
export class ReloadlyRateLimit {
  private readonly pausedUntil = new Map<ReloadlyApi, number>();
  private readonly backOff = new Map<ReloadlyApi, number>();

  constructor(private readonly now: () => number = Date.now) {}

  check(api: ReloadlyApi, what: string): void {
    const until = this.pausedUntil.get(api) ?? 0;
    if (this.now() < until)
      throw new ProviderNotSentError(
        `reloadly: ${what} was not sent: the ${api} API's rate limit was reached; calls resume at ${new Date(until).toISOString()}`,
        { retryAfterMs: until - this.now() },
      );
    if (until !== 0 && this.now() >= until) this.pausedUntil.delete(api);
  }

  limited(api: ReloadlyApi, headers: Headers): number {
    const now = this.now();
    const told = resetOf(headers, now);
    const pause =
      told !== null
        ? Math.min(Math.max(told, 0), LONGEST_TOLD_PAUSE_MS)
        : Math.min((this.backOff.get(api) ?? FIRST_PAUSE_MS / 2) * 2, LONGEST_BACK_OFF_MS);
    if (told === null) this.backOff.set(api, pause);
    else this.backOff.delete(api);
    this.pausedUntil.set(api, now + pause);
    return pause;
  }

  resumesAt(api: ReloadlyApi): Date | null {
    const until = this.pausedUntil.get(api);
    return until !== undefined && until > this.now() ? new Date(until) : null;
  }
}

function resetOf(headers: Headers, now: number): number | null {
  const retryAfter = headers.get('retry-after');
  if (retryAfter !== null) {
    if (/^\d+$/.test(retryAfter.trim())) return Number(retryAfter.trim()) * 1000;
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return at - now;
  }
  const reset = headers.get('x-ratelimit-reset');
  if (reset !== null && /^\d+$/.test(reset.trim())) {
    const value = Number(reset.trim());
    // A Unix time (seconds) as the Java SDK reads it; a small number is taken as seconds from now.
    return value > 1_000_000_000 ? value * 1000 - now : value * 1000;
  }
  return null;
}
