/** How the service reaches Reloadly. The client secret is only ever sent to the token endpoint. */
export interface ReloadlySettings {
  clientId: string;
  clientSecret: string;
  /** Base URL of the OAuth server; tokens come from `<authUrl>/oauth/token`. */
  authUrl: string;
  /** Base URL of the airtime (topups) API; also the audience of its tokens. */
  topupsUrl: string;
  /** Base URL of the utilities (bill payment) API; also the audience of its tokens. */
  utilitiesUrl: string;
  /** Below this float (in the account's currency, a decimal text) a warning is logged; null: no warning. */
  lowFloatThreshold: string | null;
  /** The IANA time zone of the report's wall-clock times (range parameters and transaction dates). */
  reportTimeZone: string;
}

export type ReloadlyApi = 'topups' | 'utilities';

export const ACCEPT_HEADER: Record<ReloadlyApi, string> = {
  topups: 'application/com.reloadly.topups-v1+json',
  utilities: 'application/com.reloadly.utilities-v1+json',
};

export const baseUrlOf = (settings: ReloadlySettings, api: ReloadlyApi): string =>
  (api === 'topups' ? settings.topupsUrl : settings.utilitiesUrl).replace(/\/+$/, '');
