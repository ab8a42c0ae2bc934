/** Who caused an event: a partner's API key, a back-office operator, or the service itself. */
export type Actor =
  { type: 'partner_key'; id: string } | { type: 'operator'; id: string } | { type: 'system'; id: string };

export const systemActor = (process: string): Actor => ({ type: 'system', id: process });
