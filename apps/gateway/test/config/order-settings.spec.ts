import { loadConfig } from '../../src/config/gateway.config';

describe('order settings', () => {
  it('default to 1000 transactions an order and 20,000 cached events', () => {
    expect(loadConfig({}).orders).toEqual({ maxTransactions: 1000, cachedEvents: 20_000 });
  });

  it('are read from the environment, and a bad value is named', () => {
    expect(
      loadConfig({ GATEWAY_MAX_TRANSACTIONS_PER_ORDER: '5', GATEWAY_ORDER_CACHE_EVENTS: '0' })
        .orders,
    ).toEqual({ maxTransactions: 5, cachedEvents: 0 });
    expect(() =>
      loadConfig({ GATEWAY_MAX_TRANSACTIONS_PER_ORDER: '0', GATEWAY_ORDER_CACHE_EVENTS: '-1' }),
    ).toThrow(
      /GATEWAY_MAX_TRANSACTIONS_PER_ORDER='0' must be a whole number from 1 to 100000[\s\S]*GATEWAY_ORDER_CACHE_EVENTS='-1'/,
    );
  });
});
