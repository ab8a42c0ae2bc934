import { Decision, accept, refuse } from '../shared/decider';
import { domainError } from '../shared/domain-error';
import { Environment } from '../shared/environment';
import { currencyOf } from '../corridor/corridor';
import { PartnerEvent } from './partner.events';
import { MAX_ACTIVE_SCOPED_KEYS, MAX_KEY_LABEL_LENGTH } from './scoped-key';
import { PartnerCommand, PartnerState } from './partner.commands';

/** Why restricted keys are revoked with a regenerated main key (ScopedKeyRevoked.reason). */
export const MAIN_KEY_REGENERATED = 'main_key_regenerated';

/** The restricted keys of an environment that still work (expiry aside), oldest first. */
export function activeScopedKeys(state: PartnerState, environment: Environment): string[] {
  return Object.entries(state.scopedKeys)
    .filter(([, key]) => key.active && key.environment === environment)
    .map(([keyId]) => keyId);
}

export function createScopedKey(
  partnerId: string,
  command: Extract<PartnerCommand, { type: 'CreateScopedKey' }>,
  state: PartnerState,
): Decision<PartnerEvent> {
  const { environment, label, scope, perOrderMax, dailyMax, rateLimitPerMinute, expiresAt, at } = command;
  if (!state.activeKeys[environment]) {
    const detail = `no ${environment} key has been issued; live keys are issued on KYC approval`;
    return refuse(domainError('invalid_state', detail));
  }
  if (activeScopedKeys(state, environment).length >= MAX_ACTIVE_SCOPED_KEYS) {
    const detail = `at most ${MAX_ACTIVE_SCOPED_KEYS} active restricted keys per environment; revoke one first`;
    return refuse(domainError('invalid_state', detail));
  }
  if (label.trim().length === 0 || label.length > MAX_KEY_LABEL_LENGTH) {
    return refuse(domainError('validation_failed', `label: from 1 to ${MAX_KEY_LABEL_LENGTH} characters`));
  }
  if (scope === 'read_only' && (perOrderMax || dailyMax)) {
    const detail = 'per_order_max: caps apply to transact keys only; a read_only key moves no money';
    return refuse(domainError('validation_failed', detail));
  }
  if (!state.corridor) return refuse(domainError('invalid_state', 'the partner has no corridor'));
  const currency = currencyOf(state.corridor);
  for (const [name, cap] of [
    ['per_order_max', perOrderMax],
    ['daily_max', dailyMax],
  ] as const) {
    if (cap && (cap.currency !== currency || !cap.isPositive())) {
      return refuse(domainError('validation_failed', `${name}: a positive amount in ${currency}`));
    }
  }
  if (perOrderMax && dailyMax && dailyMax.isLessThan(perOrderMax)) {
    return refuse(domainError('validation_failed', 'per_order_max: must not exceed daily_max'));
  }
  if (expiresAt !== null && new Date(expiresAt).getTime() <= new Date(at).getTime()) {
    return refuse(domainError('validation_failed', 'expires_at: must be in the future'));
  }
  const environmentLimit = state.settings[environment].rateLimitPerMinute;
  if (
    rateLimitPerMinute !== null &&
    (!Number.isInteger(rateLimitPerMinute) || rateLimitPerMinute < 1 || rateLimitPerMinute > environmentLimit)
  ) {
    const detail = `rate_limit: an integer from 1 to ${environmentLimit}, this environment's limit per minute; a restricted key may have a lower limit, never a higher one`;
    return refuse(domainError('validation_failed', detail));
  }
  return accept({
    type: 'ScopedKeyCreated',
    data: {
      partnerId,
      keyId: command.key.keyId,
      environment,
      keyHash: command.key.keyHash,
      label,
      scope,
      perOrderMax: perOrderMax ? perOrderMax.toDecimal() : null,
      dailyMax: dailyMax ? dailyMax.toDecimal() : null,
      currency,
      ...(rateLimitPerMinute !== null ? { rateLimitPerMinute } : {}),
      expiresAt,
      createdAt: at,
    },
  });
}
