import { OperatorCommand, isActiveAt, operatorsDecider } from '../../../../src/domain/back-office/operator.decider';
import { OperatorCreated, OperatorRevoked } from '../../../../src/domain/back-office/operator.events';
import { OperatorRole, ROLE_PERMISSIONS, mayDo } from '../../../../src/domain/back-office/operator-role';
import { spec } from '../../../support/decider-spec';

const AT = '2026-03-01T09:00:00.000Z';
const LATER = '2026-03-05T09:00:00.000Z';

const create = (operatorId: string, name: string, role: OperatorRole, days = 90, at = AT): OperatorCommand => ({
  type: 'CreateOperator',
  operatorId,
  name,
  role,
  tokenHash: `hash-of-${operatorId}`,
  days,
  at,
});
const revoke = (ref: string, at = LATER): OperatorCommand => ({ type: 'RevokeOperators', ref, reason: 'left', at });

const created = (
  operatorId: string,
  name: string,
  role: OperatorRole,
  expiresAt: string,
  at = AT,
): OperatorCreated => ({
  type: 'OperatorCreated',
  data: { operatorId, name, role, tokenHash: `hash-of-${operatorId}`, expiresAt, createdAt: at },
});
const revoked = (operatorId: string, name: string, at = LATER): OperatorRevoked => ({
  type: 'OperatorRevoked',
  data: { operatorId, name, reason: 'left', revokedAt: at },
});

const IN_90_DAYS = '2026-05-30T09:00:00.000Z';

describe('back-office operators (decider)', () => {
  it('an owner creates an operator whose token expires after the days asked', () => {
    spec(operatorsDecider)
      .given()
      .when(create('opr_1', 'ops.asha', 'operator'))
      .then(created('opr_1', 'ops.asha', 'operator', IN_90_DAYS));
    spec(operatorsDecider)
      .given()
      .when(create('opr_1', 'ops.asha', 'operator', 1))
      .then(created('opr_1', 'ops.asha', 'operator', '2026-03-02T09:00:00.000Z'));
  });

  it('refuses a token for more than 365 days, or none', () => {
    spec(operatorsDecider)
      .given()
      .when(create('opr_1', 'a', 'finance', 366))
      .thenRefused('validation_failed', /365/);
    spec(operatorsDecider)
      .given()
      .when(create('opr_1', 'a', 'finance', 0))
      .thenRefused('validation_failed');
    spec(operatorsDecider)
      .given()
      .when(create('opr_1', 'a', 'finance', 1.5))
      .thenRefused('validation_failed');
  });

  it('refuses names that are malformed or read as something else in an audit', () => {
    for (const name of ['', 'Ops', 'ops asha', '.ops', 'break-glass', 'admin-token', 'system', 'opr_1', 'x'.repeat(65)])
      spec(operatorsDecider)
        .given()
        .when(create('opr_1', name, 'finance'))
        .thenRefused('validation_failed', /^name: /);
  });

  it('gives one person several tokens of one role (rotation), never two roles at once', () => {
    const given = created('opr_1', 'ops.asha', 'operator', IN_90_DAYS);
    spec(operatorsDecider)
      .given(given)
      .when(create('opr_2', 'ops.asha', 'operator', 90, LATER))
      .then(created('opr_2', 'ops.asha', 'operator', '2026-06-03T09:00:00.000Z', LATER));
    spec(operatorsDecider)
      .given(given)
      .when(create('opr_2', 'ops.asha', 'owner', 90, LATER))
      .thenRefused('invalid_state', /ops.asha holds the role operator/);
    // Once the old token is revoked, or has expired, the person may get another role.
    const afterRevocation = spec(operatorsDecider)
      .given(given, revoked('opr_1', 'ops.asha'))
      .when(create('opr_2', 'ops.asha', 'owner', 90, LATER));
    expect(afterRevocation.events()).toHaveLength(1);
    const afterExpiry = spec(operatorsDecider)
      .given(given)
      .when(create('opr_2', 'ops.asha', 'owner', 90, IN_90_DAYS));
    expect(afterExpiry.events()).toHaveLength(1);
  });

  it('refuses an operator id or token hash it has already', () => {
    spec(operatorsDecider)
      .given(created('opr_1', 'ops.asha', 'operator', IN_90_DAYS))
      .when(create('opr_1', 'ops.ravi', 'finance'))
      .thenRefused('invalid_state');
  });

  it('revokes one token by its id, or every token of a person by name', () => {
    const asha1 = created('opr_1', 'ops.asha', 'operator', IN_90_DAYS);
    const asha2 = created('opr_2', 'ops.asha', 'operator', IN_90_DAYS);
    const ravi = created('opr_3', 'ops.ravi', 'finance', IN_90_DAYS);
    spec(operatorsDecider).given(asha1, asha2, ravi).when(revoke('opr_2')).then(revoked('opr_2', 'ops.asha'));
    spec(operatorsDecider)
      .given(asha1, asha2, ravi, revoked('opr_1', 'ops.asha'))
      .when(revoke('ops.asha'))
      .then(revoked('opr_2', 'ops.asha'));
    spec(operatorsDecider)
      .given(asha1, asha2, ravi)
      .when(revoke('ops.asha'))
      .then(revoked('opr_1', 'ops.asha'), revoked('opr_2', 'ops.asha'));
  });

  it('refuses to revoke what does not exist, or what is revoked already', () => {
    const asha = created('opr_1', 'ops.asha', 'operator', IN_90_DAYS);
    spec(operatorsDecider).given(asha).when(revoke('opr_9')).thenRefused('not_found');
    spec(operatorsDecider).given(asha).when(revoke('ops.nobody')).thenRefused('not_found');
    spec(operatorsDecider).given(asha, revoked('opr_1', 'ops.asha')).when(revoke('opr_1')).thenRefused('invalid_state');
    spec(operatorsDecider)
      .given(asha, revoked('opr_1', 'ops.asha'))
      .when(revoke('ops.asha'))
      .thenRefused('invalid_state');
  });

  it('a token is active from its creation until it expires or is revoked', () => {
    const state = spec(operatorsDecider)
      .given(created('opr_1', 'ops.asha', 'operator', IN_90_DAYS))
      .state();
    const record = state.operators.get('opr_1');
    if (!record) throw new Error('not folded');
    expect(state.byTokenHash.get('hash-of-opr_1')).toBe('opr_1');
    expect(isActiveAt(record, LATER)).toBe(true);
    expect(isActiveAt(record, IN_90_DAYS)).toBe(false);
    const after = spec(operatorsDecider)
      .given(created('opr_1', 'ops.asha', 'operator', IN_90_DAYS), revoked('opr_1', 'ops.asha'))
      .state()
      .operators.get('opr_1');
    if (!after) throw new Error('not folded');
    expect(isActiveAt(after, LATER)).toBe(false);
  });
});

describe('roles', () => {
  it('the owner may do everything; finance reads and runs reconciliation; only the operator role and the owner move money', () => {
    expect(ROLE_PERMISSIONS.owner).toEqual([
      'read',
      'manage_partners',
      'issue_credentials',
      'move_money',
      'resend_webhooks',
      'run_projections',
      'manage_routes',
      'run_reconciliation',
      'manage_operators',
    ]);
    expect(ROLE_PERMISSIONS.finance).toEqual(['read', 'run_reconciliation']);
    const reconcilers = (['owner', 'operator', 'finance', 'engineer'] as const).filter((role) =>
      mayDo(role, 'run_reconciliation'),
    );
    expect(reconcilers).toEqual(['owner', 'finance', 'engineer']);
    const movers = (['owner', 'operator', 'finance', 'engineer'] as const).filter((role) => mayDo(role, 'move_money'));
    expect(movers).toEqual(['owner', 'operator']);
    expect(mayDo('engineer', 'manage_partners')).toBe(false);
    expect(mayDo('operator', 'manage_operators')).toBe(false);
    const issuers = (['owner', 'operator', 'finance', 'engineer'] as const).filter((role) =>
      mayDo(role, 'issue_credentials'),
    );
    expect(issuers).toEqual(['owner']);
  });
});
