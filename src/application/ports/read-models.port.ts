import { Corridor } from '../../domain/corridor/corridor';
import { OrderView } from '../../domain/transaction/order-view';
import { Currency } from '../../domain/money/currency';
import { Environment } from '../../domain/shared/environment';
import { KycStatus } from '../../domain/partner/partner.events';
import { PublicStatus } from '../../domain/transaction/transaction.decider';
import { GlobalPosition } from './event-store.port';
import { PartnerSettings } from '../../domain/partner/partner-settings';
import { KeyScope } from '../../domain/partner/scoped-key';
import { Actor } from '../../domain/shared/actor';

export interface BalanceView {
  partnerId: string;
  environment: Environment;
  currency: Currency;
  available: string;
  updatedAt: string;
}

/** An order as the read models return it: the domain's view without the read model's own columns. */
export type StoredOrderView = Omit<OrderView, 'provider' | 'heldAt'>;

export interface OrderListFilter {
  partnerId: string;
  environment: Environment;
  /** As partners see it: FAILED only once refunded, PENDING for every order not final for them. */
  publicStatus?: PublicStatus;
  createdFrom?: string;
  createdTo?: string;
  reference?: string;
  /** Opaque cursor from the previous page. */
  after?: { createdAt: string; orderId: string };
  limit: number;
}

export interface PartnerView {
  partnerId: string;
  name: string;
  corridor: Corridor;
  kycStatus: KycStatus;
  createdAt: string;
}

export interface ApiKeyView {
  keyId: string;
  partnerId: string;
  environment: Environment;
  active: boolean;
}

export interface ReadModels {
  balance(partnerId: string, environment: Environment): Promise<BalanceView | null>;
  allBalances(): Promise<BalanceView[]>;
  order(orderId: string): Promise<StoredOrderView | null>;
  orders(filter: OrderListFilter): Promise<StoredOrderView[]>;
  heldOrders(limit: number): Promise<StoredOrderView[]>;
  /** Live orders routed to the provider and placed in [from, to), oldest first (reconciliation). */
  ordersRoutedTo(provider: string, from: string, to: string): Promise<StoredOrderView[]>;
  /**
   * The UTC days (YYYY-MM-DD, oldest first) in [from, to) on which live orders routed to the provider were placed
   * that are still in doubt: initiated, pending or held (reconciliation judges those days again).
   */
  daysWithOrdersInDoubt(provider: string, from: string, to: string): Promise<string[]>;
  partner(partnerId: string): Promise<PartnerView | null>;
  apiKeyByHash(keyHash: string): Promise<ApiKeyView | null>;
  /**
   * What admitting a request needs, in one read: the key, its partner, and the partner's
   * settings for the key's environment (defaults when never changed). Null for an unknown key.
   */
  apiKeyAccess(keyHash: string): Promise<ApiKeyAccess | null>;
  /** The same, by key id (an open event stream checking its key again); keys not found are absent. */
  apiKeyAccessByIds(keyIds: readonly string[]): Promise<Map<string, ApiKeyAccess>>;
  /** The partner's restricted keys in the environment, revoked ones included, oldest first. */
  scopedKeys(partnerId: string, environment: Environment): Promise<ScopedKeyView[]>;
  /** The environment's active main key (null before one was issued). */
  mainKey(partnerId: string, environment: Environment): Promise<MainKeyView | null>;
  /** Defaults when the partner never changed them. */
  partnerSettings(partnerId: string, environment: Environment): Promise<PartnerSettings>;
  /** Every partner environment that holds at least one webhook secret. */
  environmentsWithWebhookSecrets(): Promise<{ partnerId: string; environment: Environment }[]>;
}

export interface ApiKeyAccess {
  key: ApiKeyView;
  partner: PartnerView | null;
  settings: PartnerSettings;
  /** The terms of a restricted key; null for the environment's main key. */
  restriction: KeyRestriction | null;
  /**
   * Why the key's record cannot be trusted (a restricted key without its terms, a main key with
   * some, an unknown kind); null when it is whole. Such a key is refused, never taken for the main key.
   */
  recordProblem: string | null;
  /** A revocation of this partner's access in this environment is in the log but not yet in these read models. */
  accessChangePending: boolean;
}

/** What a restricted key may do; caps are decimal strings in the wallet currency, null: no such cap. */
export interface KeyRestriction {
  label: string;
  scope: KeyScope;
  perOrderMax: string | null;
  dailyMax: string | null;
  expiresAt: string | null;
  /** Requests per minute of the key's own (below its environment's); null: the environment's limit only. */
  rateLimitPerMinute: number | null;
}

/** Who made a key and when it was last used: what the key lists show of every key. */
export interface KeyProvenance {
  keyId: string;
  createdAt: string;
  /** The actor of the key's creation event (a partner's main key, an operator); null if not recorded. */
  createdBy: Actor | null;
  /** When a request with the key was last admitted (to within a few seconds); null: never. */
  lastUsedAt: string | null;
}

export interface ScopedKeyView extends KeyRestriction, KeyProvenance {
  partnerId: string;
  environment: Environment;
  currency: Currency;
  revokedAt: string | null;
  /** Why it was revoked: 'revoked' (by the partner or an operator), 'main_key_regenerated'. */
  revokeReason: string | null;
}

export type MainKeyView = KeyProvenance;

/** Read-your-writes: resolves once every projection has processed the given position. */
export interface ProjectionBarrier {
  /** False when the read models did not get there in time (the caller's write stands; reads may lag). */
  waitFor(position: GlobalPosition | null, timeoutMs?: number): Promise<boolean>;
}

export const READ_MODELS = Symbol('ReadModels');
export const PROJECTION_BARRIER = Symbol('ProjectionBarrier');
