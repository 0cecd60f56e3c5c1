import { loadConfig } from '../../src/config/gateway.config';

describe('traffic limits and shutdown settings', () => {
  it('have defaults', () => {
    expect(loadConfig({})).toMatchObject({
      limits: {
        maxInFlight: 1000,
        maxEventLoopDelayMs: 500,
        merchantRequestsPerSecond: 0,
        authMaxFailures: 10,
        authLockoutSeconds: 300,
        authTrackedKeys: 10_000,
      },
      shutdownGraceSeconds: 10,
    });
  });

  it('are read from the environment', () => {
    const config = loadConfig({
      GATEWAY_MAX_IN_FLIGHT: '0',
      GATEWAY_MAX_EVENT_LOOP_DELAY: '50',
      GATEWAY_RATE_LIMIT: '20',
      GATEWAY_AUTH_MAX_FAILURES: '3',
      GATEWAY_AUTH_LOCKOUT: '2',
      GATEWAY_AUTH_TRACKED_KEYS: '50',
      GATEWAY_SHUTDOWN_TIMEOUT: '30',
    });
    expect(config.limits).toEqual({
      maxInFlight: 0,
      maxEventLoopDelayMs: 50,
      merchantRequestsPerSecond: 20,
      authMaxFailures: 3,
      authLockoutSeconds: 2,
      authTrackedKeys: 50,
    });
    expect(config.shutdownGraceSeconds).toBe(30);
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
