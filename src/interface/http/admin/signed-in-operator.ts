import { OperatorIdentity } from '../../../application/back-office/operator-identity';

const byRequest = new WeakMap<object, OperatorIdentity>();

export const rememberOperator = (request: object, identity: OperatorIdentity): void => {
  byRequest.set(request, identity);
};

export function signedInOperator(request: object): OperatorIdentity {
  const identity = byRequest.get(request);
  if (!identity) throw new Error('no operator on this request: the route is not guarded by AdminTokenGuard');
  return identity;
}
