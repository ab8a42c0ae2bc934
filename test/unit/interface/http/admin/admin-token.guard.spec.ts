import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthenticateOperator } from '../../../../../src/application/back-office/authenticate-operator';
import { SourceThrottle } from '../../../../../src/application/access/source-throttle';
import { OperatorIdentity } from '../../../../../src/application/back-office/operator-identity';
import { ServiceError } from '../../../../../src/application/shared/service-error';
import { ServiceConfig } from '../../../../../src/config/service-config';
import { OperatorRole } from '../../../../../src/domain/back-office/operator-role';
import { AdminTokenGuard } from '../../../../../src/interface/http/admin/admin-token.guard';
import { RequiresPermission } from '../../../../../src/interface/http/admin/permission.decorator';
import { signedInOperator } from '../../../../../src/interface/http/admin/signed-in-operator';

const BREAK_GLASS = 'break-glass-token-for-the-guard-spec';

class Routes {
  @RequiresPermission('move_money')
  credit(): string {
    return 'credited';
  }

  /** A route that forgot to declare what it needs. */
  undeclared(): string {
    return 'done';
  }
}

const operatorOf = (role: OperatorRole): OperatorIdentity => ({
  name: `someone.${role}`,
  role,
  operatorId: `opr_${role}`,
  expiresAt: '2099-01-01T00:00:00.000Z',
  breakGlass: false,
});

/** Tokens are `token-<role>`; anything else is refused as the real authentication refuses it. */
const authenticate = {
  identify: (token: string) => {
    const role = /^token-(owner|operator|finance|engineer)$/.exec(token)?.[1] as OperatorRole | undefined;
    if (!role) return Promise.reject(new ServiceError('invalid_admin_token', 'the operator token is missing or wrong'));
    return Promise.resolve(operatorOf(role));
  },
} as unknown as AuthenticateOperator;

const unthrottled = new SourceThrottle(
  {
    admit: () => Promise.resolve({ refused: false, charged: false }),
    recordFailure: () => Promise.resolve(),
    refund: () => Promise.resolve(),
  },
  { now: () => new Date() },
);

const guard = new AdminTokenGuard(
  { adminToken: BREAK_GLASS } as ServiceConfig,
  new Reflector(),
  authenticate,
  unthrottled,
);

function callTo(handler: keyof Routes, token: string) {
  const request = {
    headers: { authorization: `Bearer ${token}` },
    ip: '192.0.2.7',
    method: 'POST',
    url: '/v1/admin/x',
  };
  const context = {
    switchToHttp: () => ({ getRequest: () => request }),
    getHandler: () => Object.getOwnPropertyDescriptor(Routes.prototype, handler)?.value as unknown,
    getClass: () => Routes,
  } as unknown as ExecutionContext;
  return { request, admitted: () => guard.canActivate(context) };
}

const refusalOf = async (admitted: () => Promise<boolean>): Promise<string> =>
  admitted().then(
    () => 'admitted',
    (error: unknown) => (error instanceof ServiceError ? error.code : String(error)),
  );

describe('the back-office guard', () => {
  it("admits a role that holds the route's permission and remembers who it admitted", async () => {
    const call = callTo('credit', 'token-operator');
    expect(await call.admitted()).toBe(true);
    expect(signedInOperator(call.request)).toMatchObject({ name: 'someone.operator', role: 'operator' });
  });

  it('refuses a role without the permission with role_forbidden, and an unknown token with invalid_admin_token', async () => {
    expect(await refusalOf(callTo('credit', 'token-finance').admitted)).toBe('role_forbidden');
    expect(await refusalOf(callTo('credit', 'token-engineer').admitted)).toBe('role_forbidden');
    expect(await refusalOf(callTo('credit', 'not-a-token').admitted)).toBe('invalid_admin_token');
    expect(await refusalOf(callTo('credit', '').admitted)).toBe('invalid_admin_token');
  });

  it('leaves a route that declares nothing to the owner alone (fails closed)', async () => {
    for (const role of ['operator', 'finance', 'engineer'] as const)
      expect(await refusalOf(callTo('undeclared', `token-${role}`).admitted)).toBe('role_forbidden');
    expect(await callTo('undeclared', 'token-owner').admitted()).toBe(true);
    const breakGlass = callTo('undeclared', BREAK_GLASS);
    expect(await breakGlass.admitted()).toBe(true);
    expect(signedInOperator(breakGlass.request)).toMatchObject({
      name: 'break-glass',
      role: 'owner',
      breakGlass: true,
    });
  });
});
