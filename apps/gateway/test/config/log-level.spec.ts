import { loadConfig } from '../../src/config/gateway.config';

describe('the log level', () => {
  it('level comes from GATEWAY_LOG_LEVEL, info by default, and a bad one stops start-up', () => {
    expect(loadConfig({}).logLevel).toBe('info');
    expect(loadConfig({ GATEWAY_LOG_LEVEL: 'silent' }).logLevel).toBe('silent');
    expect(() => loadConfig({ GATEWAY_LOG_LEVEL: 'loud' })).toThrow(/GATEWAY_LOG_LEVEL='loud'/);
  });
});
