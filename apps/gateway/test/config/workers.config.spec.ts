import { loadConfig } from '../../src/config/gateway.config';

describe('GATEWAY_WORKERS', () => {
  it('is one process unless told otherwise', () => {
    expect(loadConfig({}).workers).toBe(1);
    expect(loadConfig({ GATEWAY_WORKERS: '4' }).workers).toBe(4);
  });

  it('refuses what is not a whole number from 1 to 64', () => {
    for (const raw of ['0', '65', '1.5', 'two'])
      expect(() => loadConfig({ GATEWAY_WORKERS: raw })).toThrow(
        `GATEWAY_WORKERS='${raw}' must be a whole number from 1 to 64`,
      );
  });

  it('needs the embedded store: on KurrentDB several nodes do it', () => {
    const kurrentdb = {
      GATEWAY_EVENT_STORE: 'kurrentdb',
      KURRENTDB_CONNECTION_STRING: 'kurrentdb://127.0.0.1:2113?tls=false',
      GATEWAY_KEYS_FILE: 'keys.json',
    };
    expect(loadConfig({ ...kurrentdb, GATEWAY_WORKERS: '1' }).workers).toBe(1);
    expect(() => loadConfig({ ...kurrentdb, GATEWAY_WORKERS: '2' })).toThrow(
      'GATEWAY_WORKERS=2 needs the embedded event store (GATEWAY_EVENT_STORE=sqlite): on KurrentDB, run several nodes instead',
    );
  });

  it('refuses a manual clock: each process would have its own, the janitor runs in the primary', () => {
    expect(loadConfig({ GATEWAY_CLOCK: 'manual' }).acquirerLater.clock).toBe('manual');
    expect(() => loadConfig({ GATEWAY_CLOCK: 'manual', GATEWAY_WORKERS: '2' })).toThrow(
      'GATEWAY_CLOCK=manual needs GATEWAY_WORKERS=1 (one process, one clock)',
    );
  });
});
