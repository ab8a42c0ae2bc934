/**
 * Who may do what in the back office. A route needs one permission; a role holds a set of them.
 * The table of every admin route against every role is docs/roles.md (checked by a test).
 */
export const OPERATOR_ROLES = ['owner', 'operator', 'finance', 'engineer'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

export const PERMISSIONS = [
  /** Every read: partners, orders, deliveries, audits and exports, reports, verify, projections, jobs, routes, metrics. */
  'read',
  /** Onboarding, KYC approval and suspension, revoking restricted keys, partner settings (never a credential). */
  'manage_partners',
  /**
   * Obtaining a credential of a partner's: a regenerated main key, a restricted key, the first live
   * key at KYC approval, a webhook signing secret. Partners obtain their own; an owner may, on their behalf.
   */
  'issue_credentials',
  /** Wallet credits and the resolution of held orders (which refunds or lets a debit stand). */
  'move_money',
  /** Sending a webhook delivery again. */
  'resend_webhooks',
  /** Blue/green rebuilds of read models. */
  'run_projections',
  /** Live routes: set, remove, and provider sync. */
  'manage_routes',
  /** Running a day's reconciliation by hand, which records its findings (evidence; it moves no money). */
  'run_reconciliation',
  /** Back-office operators: create, list, revoke. */
  'manage_operators',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const ROLE_PERMISSIONS: Readonly<Record<OperatorRole, readonly Permission[]>> = {
  owner: PERMISSIONS,
  operator: ['read', 'manage_partners', 'move_money', 'resend_webhooks'],
  finance: ['read', 'run_reconciliation'],
  engineer: ['read', 'resend_webhooks', 'run_projections', 'manage_routes', 'run_reconciliation'],
};

export const mayDo = (role: OperatorRole, permission: Permission): boolean =>
  ROLE_PERMISSIONS[role].includes(permission);
