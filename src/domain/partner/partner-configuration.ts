import { Corridor, currencyOf } from '../corridor/corridor';
import { Decision, accept, refuse } from '../shared/decider';
import { DomainError, domainError } from '../shared/domain-error';
import { Money } from '../money/money';
import { PartnerEvent } from './partner.events';
import {
  MAX_RATE_LIMIT_PER_MINUTE,
  PartnerSettings,
  SECRET_ROTATION_OVERLAP_MS,
  SettingsChange,
  lowBalanceThresholdProblem,
  rateLimitCeiling,
  webhookUrlProblem,
} from './partner-settings';
import { PartnerCommand } from './partner.commands';

/**
 * A partner sets its own limit only up to the ceiling the back office set (or the environment's
 * default ceiling); only the back office (no main key) moves the ceiling.
 */
export function rateLimitAboveCeiling(
  command: Extract<PartnerCommand, { type: 'ConfigurePartner' }>,
  current: PartnerSettings,
): DomainError | null {
  const { changes, environment, mainKeyUsed } = command;
  if (mainKeyUsed === null) return null;
  if (changes.rateLimitCeilingPerMinute !== undefined)
    return domainError('validation_failed', 'rate_limit_ceiling: set by the back office only');
  const ceiling = rateLimitCeiling(current, environment);
  if (changes.rateLimitPerMinute === undefined || changes.rateLimitPerMinute <= ceiling) return null;
  return domainError(
    'validation_failed',
    `rate_limit_per_minute: at most ${ceiling}, the ceiling of your ${environment} keys; ask us to raise it`,
  );
}

export function configure(
  partnerId: string,
  command: Extract<PartnerCommand, { type: 'ConfigurePartner' }>,
  current: PartnerSettings,
  corridor: Corridor | null,
): Decision<PartnerEvent> {
  const { environment, changes, at } = command;
  if (changes.webhookUrl) {
    const problem = webhookUrlProblem(changes.webhookUrl, environment);
    if (problem) return refuse(domainError('validation_failed', problem));
  }
  for (const value of [changes.rateLimitPerMinute, changes.rateLimitCeilingPerMinute]) {
    if (value !== undefined && (!Number.isInteger(value) || value < 1 || value > MAX_RATE_LIMIT_PER_MINUTE)) {
      const detail = `rate_limit: an integer from 1 to ${MAX_RATE_LIMIT_PER_MINUTE} requests per minute`;
      return refuse(domainError('validation_failed', detail));
    }
  }
  let threshold = changes.lowBalanceThreshold;
  if (threshold !== undefined && threshold !== null) {
    const currency = corridor ? currencyOf(corridor) : null;
    if (!currency) return refuse(domainError('invalid_state', 'the partner has no corridor'));
    const problem = lowBalanceThresholdProblem(threshold, currency);
    if (problem) return refuse(domainError('validation_failed', problem));
    // Kept in the currency's own digits ("500" -> "500.00"), as balances are written.
    threshold = Money.parse(threshold, currency)?.toDecimal() ?? threshold;
  }
  const effective: SettingsChange = {};
  if (changes.webhookUrl !== undefined && changes.webhookUrl !== current.webhookUrl)
    effective.webhookUrl = changes.webhookUrl;
  if (changes.ipAllowlist !== undefined && changes.ipAllowlist.join(',') !== current.ipAllowlist.join(','))
    effective.ipAllowlist = changes.ipAllowlist;
  if (changes.rateLimitPerMinute !== undefined && changes.rateLimitPerMinute !== current.rateLimitPerMinute)
    effective.rateLimitPerMinute = changes.rateLimitPerMinute;
  if (
    changes.rateLimitCeilingPerMinute !== undefined &&
    changes.rateLimitCeilingPerMinute !== current.rateLimitCeilingPerMinute
  )
    effective.rateLimitCeilingPerMinute = changes.rateLimitCeilingPerMinute;
  if (threshold !== undefined && threshold !== (current.lowBalanceThreshold ?? null))
    effective.lowBalanceThreshold = threshold;
  const events: PartnerEvent[] = [];
  if (Object.keys(effective).length > 0) {
    events.push({
      type: 'PartnerSettingsChanged',
      data: { partnerId, environment, changes: effective, changedAt: at },
    });
  }
  if (command.newSecret) {
    const hasSecret = current.webhookSecrets.length > 0;
    events.push({
      type: 'WebhookSecretRotated',
      data: {
        partnerId,
        environment,
        secretId: command.newSecret.secretId,
        sealedSecret: command.newSecret.sealed,
        previousValidUntil: hasSecret
          ? new Date(new Date(at).getTime() + SECRET_ROTATION_OVERLAP_MS).toISOString()
          : null,
        rotatedAt: at,
      },
    });
  }
  return accept(...events);
}
