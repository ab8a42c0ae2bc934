export interface ReloadlySettings {
  clientId: string;
  clientSecret: string;
  authUrl: string;
  topupsUrl: string;
  utilitiesUrl: string;
  lowFloatThreshold: string | null;
  reportTimeZone: string;
}

export type ReloadlyApi = 'topups' | 'utilities';

export const ACCEPT_HEADER: Record<ReloadlyApi, string> = {
  topups: 'application/com.reloadly.topups-v1+json',
  utilities: 'application/com.reloadly.utilities-v1+json',
};

export const baseUrlOf = (settings: ReloadlySettings, api: ReloadlyApi): string =>
  (api === 'topups' ? settings.topupsUrl : settings.utilitiesUrl).replace(/\/+$/, '');
