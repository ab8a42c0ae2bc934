/**
 * Where webhooks may go (WEBHOOK_ALLOW_PRIVATE_ADDRESSES). The sender checks every resolved address at each
 * delivery; a partner's settings are checked here first, so that the certain refusals are answered at once.
 */
export interface WebhookUrlPolicy {
  /** Why a webhook URL's host can never be a permitted target (as a `webhook_url: ...` detail), or null. */
  hostProblem(url: string): string | null;
}

export const OUTBOUND_ADDRESS_POLICY = Symbol('OutboundAddressPolicy');
