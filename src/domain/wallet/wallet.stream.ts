import { Environment } from '../shared/environment';

/** One wallet stream per partner and environment. */
export const walletStreamId = (partnerId: string, environment: Environment): string =>
  `wallet-${partnerId}-${environment}`;

export const parseWalletStreamId = (streamId: string): { partnerId: string; environment: Environment } | null => {
  const match = /^wallet-(.+)-(live|sandbox)$/.exec(streamId);
  return match ? { partnerId: match[1], environment: match[2] as Environment } : null;
};
