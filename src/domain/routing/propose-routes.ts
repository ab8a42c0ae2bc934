import { ProductKind, RouteTarget } from './route';

/** One of our products, as the proposal needs it. */
export interface OwnProduct {
  kind: ProductKind;
  id: number;
  name: string;
  /** ISO 3166 alpha-2 country of the corridor. */
  country: string;
  route: RouteTarget | null;
}

/** One entry of a provider's catalog. */
export interface UpstreamProduct {
  kind: ProductKind;
  id: string;
  name: string;
  country: string;
  /** Why the provider's entry may not be routed to (a fee our partners cannot be shown); absent: it may. */
  notOffered?: string;
}

export interface ProposedRoute {
  kind: ProductKind;
  id: number;
  name: string;
  country: string;
  upstreamId: string;
  upstreamName: string;
  /** exact: the names are the same once country and generic words are dropped; partial: one name's words hold the other's. */
  match: 'exact' | 'partial';
  /** The route the product has now, if any (then it changes when applied). */
  current: RouteTarget | null;
}

export interface RouteProposal {
  provider: string;
  proposed: ProposedRoute[];
  /** Already routed to exactly what would be proposed. */
  unchanged: number;
  /** Several upstream entries fit equally well: set one by hand (`route set`). */
  ambiguous: {
    kind: ProductKind;
    id: number;
    name: string;
    country: string;
    candidates: { upstreamId: string; upstreamName: string }[];
  }[];
  /** Nothing upstream fits. */
  unmatched: { kind: ProductKind; id: number; name: string; country: string }[];
  /** Routed to another provider: a sync never takes a product from another provider. */
  routedElsewhere: { kind: ProductKind; id: number; name: string; provider: string }[];
  /** The provider's entry that fits best is one it may not be routed to: nothing is proposed, and why is said. */
  notOffered: {
    kind: ProductKind;
    id: number;
    name: string;
    country: string;
    upstreamId: string;
    upstreamName: string;
    reason: string;
  }[];
}

const COUNTRY_WORDS: Record<string, string[]> = {
  IN: ['india', 'in'],
  BD: ['bangladesh', 'bd'],
  SG: ['singapore', 'sg'],
};
const GENERIC_WORDS = new Set(['the', 'ltd', 'limited', 'co', 'company', 'pvt', 'private', 'plc']);
/** Operators are all prepaid mobile here: words that only say so do not tell operators apart. */
const OPERATOR_WORDS = new Set(['prepaid', 'mobile', 'topup', 'top', 'up', 'airtime', 'recharge', 'pin']);

function words(name: string, kind: ProductKind, country: string): string[] {
  const drop = new Set([
    ...(COUNTRY_WORDS[country] ?? []),
    ...GENERIC_WORDS,
    ...(kind === 'operator' ? OPERATOR_WORDS : []),
  ]);
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .split(' ')
    .filter((word) => word !== '' && !drop.has(word));
}

/** Acronyms our catalog gives in parentheses, e.g. "(BESCOM)": a provider may name the biller by it alone. */
const acronymsOf = (name: string): string[] =>
  [...name.matchAll(/\(([A-Za-z0-9]{2,})\)/g)].map((match) => match[1].toLowerCase());

type Fit = { quality: 0 | 1; extra: number };

function fit(own: OwnProduct, upstream: UpstreamProduct): Fit | null {
  if (own.kind !== upstream.kind || own.country !== upstream.country) return null;
  const ours = words(own.name, own.kind, own.country);
  const theirs = words(upstream.name, upstream.kind, upstream.country);
  if (ours.length === 0 || theirs.length === 0) return null;
  if (ours.join(' ') === theirs.join(' ')) return { quality: 0, extra: 0 };
  const theirSet = new Set(theirs);
  const ourSet = new Set(ours);
  if (ours.every((word) => theirSet.has(word))) return { quality: 1, extra: theirs.length - ours.length };
  if (theirs.every((word) => ourSet.has(word))) return { quality: 1, extra: ours.length - theirs.length };
  if (acronymsOf(own.name).some((acronym) => theirSet.has(acronym))) return { quality: 1, extra: theirs.length };
  return null;
}

/**
 * Proposes a route for each of our products from a provider's catalog, by country and name:
 * the best fit wins; a tie between the best fits is left to a person, and a best fit the provider
 * may not be routed to is proposed to nobody.
 */
export function proposeRoutes(
  provider: string,
  ours: readonly OwnProduct[],
  upstream: readonly UpstreamProduct[],
): RouteProposal {
  const proposal: RouteProposal = {
    provider,
    proposed: [],
    unchanged: 0,
    ambiguous: [],
    unmatched: [],
    routedElsewhere: [],
    notOffered: [],
  };
  for (const own of ours) {
    if (own.route && own.route.provider !== provider) {
      proposal.routedElsewhere.push({ kind: own.kind, id: own.id, name: own.name, provider: own.route.provider });
      continue;
    }
    const fits = upstream.flatMap((candidate) => {
      const found = fit(own, candidate);
      return found ? [{ candidate, ...found }] : [];
    });
    const label = { kind: own.kind, id: own.id, name: own.name, country: own.country };
    if (fits.length === 0) {
      proposal.unmatched.push(label);
      continue;
    }
    fits.sort((a, b) => a.quality - b.quality || a.extra - b.extra);
    const best = fits.filter((entry) => entry.quality === fits[0].quality && entry.extra === fits[0].extra);
    if (best.length > 1) {
      proposal.ambiguous.push({
        ...label,
        candidates: best.map(({ candidate }) => ({ upstreamId: candidate.id, upstreamName: candidate.name })),
      });
      continue;
    }
    const chosen = best[0].candidate;
    if (chosen.notOffered !== undefined) {
      proposal.notOffered.push({
        ...label,
        upstreamId: chosen.id,
        upstreamName: chosen.name,
        reason: chosen.notOffered,
      });
      continue;
    }
    if (own.route && own.route.upstreamId === chosen.id) {
      proposal.unchanged++;
      continue;
    }
    proposal.proposed.push({
      ...label,
      upstreamId: chosen.id,
      upstreamName: chosen.name,
      match: best[0].quality === 0 ? 'exact' : 'partial',
      current: own.route,
    });
  }
  return proposal;
}
