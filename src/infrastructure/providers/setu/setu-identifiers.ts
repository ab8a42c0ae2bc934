/**
 * Setu's `paymentRefId` is our order id (its documented idempotency key, 6 to 35 characters):
 * the order id without its underscore, so that it is plain letters and digits, and back.
 */
export function paymentRefIdOf(orderId: string): string | null {
  const ref = orderId.replace(/_/g, '');
  return /^[A-Za-z0-9]{6,35}$/.test(ref) ? ref : null;
}

export function orderIdOfPaymentRef(paymentRefId: string | null): string | null {
  if (!paymentRefId) return null;
  const match = /^ord([0-9A-Za-z]{6,32})$/.exec(paymentRefId);
  return match ? `ord_${match[1]}` : null;
}

const IST_OFFSET_MS = (5 * 60 + 30) * 60_000;

export function istTimestamp(at: Date): string {
  const local = new Date(at.getTime() + IST_OFFSET_MS).toISOString();
  return `${local.slice(0, 19)}+05:30`;
}

export function istDate(at: Date): string {
  return new Date(at.getTime() + IST_OFFSET_MS).toISOString().slice(0, 10);
}
