import { Environment } from '../shared/environment';
import { EventStream } from '../shared/event-types';
import { WALLET_EVENTS, WalletEvent } from './wallet.events';

/** One wallet stream per partner and environment. */
export const walletStreamId = (partnerId: string, environment: Environment): string =>
  `wallet-${partnerId}-${environment}`;

export const walletStream = (partnerId: string, environment: Environment): EventStream<WalletEvent> => ({
  id: walletStreamId(partnerId, environment),
  holds: WALLET_EVENTS,
});

export const parseWalletStreamId = (streamId: string): { partnerId: string; environment: Environment } | null => {
  const match = /^wallet-(.+)-(live|sandbox)$/.exec(streamId);
  return match ? { partnerId: match[1], environment: match[2] as Environment } : null;
};
