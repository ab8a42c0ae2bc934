import { SetuConfig } from '../../../config/service-config';

export type SetuSettings = SetuConfig;

export const SETU_PATHS = {
  token: '/api/v2/auth/token',
  fetchRequest: '/api/v2/bbps/bills/fetch/request',
  fetchResponse: '/api/v2/bbps/bills/fetch/response',
  paymentRequest: '/api/v2/bbps/bills/payment/request',
  paymentResponse: '/api/v2/bbps/bills/payment/response',
  billers: '/api/v2/bbps/billers',
  transactions: '/api/v2/bbps/transactions',
} as const;

export const PARTNER_HEADER = 'X-PARTNER-ID';

/**
 * Our payments are made from the partner's prepaid wallet with us, over the internet channel:
 * payment mode `Wallet`, whose NPCI account info is `<wallet name>|<mobile>`.
 */
export const PAYMENT_MODE = 'Wallet';
export const WALLET_NAME = 'PartnerWallet';
export const AGENT_CHANNEL = 'INT';
