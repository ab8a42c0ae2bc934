/**
 * What a partner is told about a failed attempt: a category, never the raw socket error. Raw
 * errors (ECONNREFUSED against "socket hang up" against a timeout) tell which ports are open
 * behind the service, so they are kept out of everything a partner can read.
 */
export const DELIVERY_ERRORS = {
  invalidUrl: 'invalid_url: the webhook URL cannot be parsed',
  addressNotAllowed: 'address_not_allowed: the webhook URL does not lead to an address webhooks may reach',
  nameNotResolved: 'dns_failure: the webhook host name could not be resolved',
  connectionFailed: 'connection_failed: the receiver could not be reached',
  tlsFailed: 'tls_failed: no trusted TLS connection to the receiver',
  timeout: 'timeout: no complete answer in time',
  answerCutOff: 'answer_incomplete: the receiver closed the connection before its answer was complete',
} as const;

export type DeliveryError = (typeof DELIVERY_ERRORS)[keyof typeof DELIVERY_ERRORS];
