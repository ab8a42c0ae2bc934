/** What a route is for: one of our operators (topups) or billers (bill payments), by catalog id. */
export type ProductKind = 'operator' | 'biller';

export interface ProductRef {
  kind: ProductKind;
  id: number;
}

/**
 * Which upstream provider serves a product in live, and under which of its own ids. The
 * provider is a property of the route: a second provider is one more adapter and a route change.
 */
export interface RouteTarget {
  provider: string;
  upstreamId: string;
}

/** Provider names as routes, configuration and URLs use them ("reloadly"). */
export const PROVIDER_NAME = /^[a-z][a-z0-9-]{1,31}$/;
/** Upstream ids are the provider's own (numbers for Reloadly); kept as text. */
export const UPSTREAM_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;

export const productKey = (product: ProductRef): string => `${product.kind}:${product.id}`;

export const sameTarget = (a: RouteTarget | null, b: RouteTarget | null): boolean =>
  a === b || (a !== null && b !== null && a.provider === b.provider && a.upstreamId === b.upstreamId);
