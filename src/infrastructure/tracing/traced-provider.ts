import { ProviderGateway, ProviderOrder } from '../../application/ports/provider-gateway.port';
import { SpanDescription, traced } from './tracing';

const TRACED_CALLS = new Set<string | symbol>(['submit', 'poll', 'fetchBill']);

/** A provider adapter whose calls each run in a span with the order's id and outcome; fetches are child spans carrying `traceparent`. */
export function tracedProvider(name: string, gateway: ProviderGateway): ProviderGateway {
  return new Proxy(gateway, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (!TRACED_CALLS.has(property) || typeof value !== 'function') return value;
      const call = value as (...args: unknown[]) => Promise<unknown>;
      return (...args: unknown[]): Promise<unknown> =>
        traced(
          `provider ${String(property)}`,
          () => call.apply(target, args),
          () => providerSpan(name, String(property), args[0]),
        );
    },
  });
}

function providerSpan(provider: string, call: string, subject: unknown): SpanDescription {
  const order = call === 'fetchBill' ? null : (subject as ProviderOrder);
  return {
    kind: 'client',
    attributes: {
      'provider.name': provider,
      'provider.call': call,
      ...(order ? { 'order.id': order.orderId } : {}),
      ...(order?.resubmission ? { 'provider.resubmission': true } : {}),
    },
  };
}
