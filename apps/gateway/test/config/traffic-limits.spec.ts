import { loadConfig } from '../../src/config/gateway.config';

describe('traffic limits and shutdown settings', () => {
  it('have defaults', () => {
    expect(loadConfig({})).toMatchObject({
      limits: {
        maxInFlight: 1000,
        maxInFlightPerMerchant: 250,
        maxFeedsPerMerchant: 10,
        maxEventLoopDelayMs: 500,
        merchantRequestsPerSecond: 0,
        authMaxFailures: 10,
        authLockoutSeconds: 300,
        authTrackedKeys: 10_000,
      },
      connections: {
        maxConnections: 2000,
        headersTimeoutSeconds: 10,
        requestTimeoutSeconds: 30,
        keepAliveTimeoutSeconds: 5,
      },
      shutdownGraceSeconds: 10,
    });
  });

  it('are read from the environment', () => {
    const config = loadConfig({
      GATEWAY_MAX_IN_FLIGHT: '0',
      GATEWAY_MAX_IN_FLIGHT_PER_MERCHANT: '4',
      GATEWAY_MAX_FEEDS_PER_MERCHANT: '0',
      GATEWAY_MAX_EVENT_LOOP_DELAY: '50',
      GATEWAY_RATE_LIMIT: '20',
      GATEWAY_AUTH_MAX_FAILURES: '3',
      GATEWAY_AUTH_LOCKOUT: '2',
      GATEWAY_AUTH_TRACKED_KEYS: '50',
      GATEWAY_SHUTDOWN_TIMEOUT: '30',
      GATEWAY_MAX_CONNECTIONS: '0',
      GATEWAY_HEADERS_TIMEOUT: '2',
      GATEWAY_REQUEST_TIMEOUT: '2',
      GATEWAY_KEEP_ALIVE_TIMEOUT: '60',
    });
    expect(config.limits).toEqual({
      maxInFlight: 0,
      maxInFlightPerMerchant: 4,
      maxFeedsPerMerchant: 0,
      maxEventLoopDelayMs: 50,
      merchantRequestsPerSecond: 20,
      authMaxFailures: 3,
      authLockoutSeconds: 2,
      authTrackedKeys: 50,
    });
    expect(config.shutdownGraceSeconds).toBe(30);
    expect(config.connections).toEqual({
      maxConnections: 0,
      headersTimeoutSeconds: 2,
      requestTimeoutSeconds: 2,
      keepAliveTimeoutSeconds: 60,
    });
  });

  it('refuses a header timeout longer than the request timeout, and timeouts of 0', () => {
    expect(() =>
      loadConfig({
        GATEWAY_HEADERS_TIMEOUT: '20',
        GATEWAY_REQUEST_TIMEOUT: '10',
        GATEWAY_KEEP_ALIVE_TIMEOUT: '0',
      }),
    ).toThrow(
      [
        'Invalid configuration:',
        "  - GATEWAY_KEEP_ALIVE_TIMEOUT='0' must be a whole number from 1 to 3600",
        '  - GATEWAY_HEADERS_TIMEOUT (20) must not exceed GATEWAY_REQUEST_TIMEOUT (10): the headers are part of the request',
      ].join('\n'),
    );
  });

  it('reports every bad value at once, naming each', () => {
    expect(() =>
      loadConfig({
        GATEWAY_MAX_IN_FLIGHT: '-1',
        GATEWAY_RATE_LIMIT: 'lots',
        GATEWAY_AUTH_MAX_FAILURES: '0',
        GATEWAY_AUTH_LOCKOUT: '1.5',
        GATEWAY_AUTH_TRACKED_KEYS: '0',
        GATEWAY_SHUTDOWN_TIMEOUT: '0',
        GATEWAY_MAX_EVENT_LOOP_DELAY: '60001',
      }),
    ).toThrow(
      [
        'Invalid configuration:',
        "  - GATEWAY_MAX_IN_FLIGHT='-1' must be a whole number from 0 to 1000000",
        "  - GATEWAY_MAX_EVENT_LOOP_DELAY='60001' must be a whole number from 0 to 60000",
        "  - GATEWAY_RATE_LIMIT='lots' must be a whole number from 0 to 1000000",
        "  - GATEWAY_AUTH_MAX_FAILURES='0' must be a whole number from 1 to 1000000",
        "  - GATEWAY_AUTH_LOCKOUT='1.5' must be a whole number from 1 to 86400",
        "  - GATEWAY_AUTH_TRACKED_KEYS='0' must be a whole number from 1 to 10000000",
        "  - GATEWAY_SHUTDOWN_TIMEOUT='0' must be a whole number from 1 to 3600",
      ].join('\n'),
    );
  });
});
