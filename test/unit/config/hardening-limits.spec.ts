import { loadConfig } from '../../../src/config/load-config';

const server = {
  EVENT_STORE: 'postgres',
  DATABASE_URL: 'postgres://db/service',
  API_KEY_SECRET: 'k'.repeat(32),
  ADMIN_TOKEN: 'a'.repeat(32),
};

describe('limits against slow clients, the webhook address opt-in and retention', () => {
  it('have safe defaults: 30 s per request, 10 s for headers, 72 s keep-alive, 256 connections per address, public webhook targets only, 30/30/90 days kept', () => {
    expect(loadConfig(server)).toMatchObject({
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 72_000,
      maxConnectionsPerIp: 256,
      webhookAllowPrivateAddresses: false,
      jobRetentionDays: 30,
      webhookAttemptRetentionDays: 30,
      webhookDeliveryRetentionDays: 90,
    });
  });

  it('take a private deployment opt-in only as true or false', () => {
    expect(loadConfig({ ...server, WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' }).webhookAllowPrivateAddresses).toBe(true);
    expect(loadConfig({ ...server, WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'false' }).webhookAllowPrivateAddresses).toBe(
      false,
    );
    expect(() => loadConfig({ ...server, WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'yes' })).toThrow(
      /WEBHOOK_ALLOW_PRIVATE_ADDRESSES must be true or false/,
    );
  });

  it('refuse headers allowed longer than the whole request, and attempts kept longer than their delivery', () => {
    expect(() => loadConfig({ ...server, HEADERS_TIMEOUT_MS: '40000' })).toThrow(
      /HEADERS_TIMEOUT_MS \(40000\) must not be above REQUEST_TIMEOUT_MS \(30000\)/,
    );
    expect(() => loadConfig({ ...server, WEBHOOK_ATTEMPT_RETENTION_DAYS: '100' })).toThrow(
      /WEBHOOK_ATTEMPT_RETENTION_DAYS \(100\) must not be above WEBHOOK_DELIVERY_RETENTION_DAYS \(90\)/,
    );
    expect(loadConfig({ ...server, MAX_CONNECTIONS_PER_IP: '0' }).maxConnectionsPerIp).toBe(0);
  });
});
