import { ConfigError } from '@gateway/config';
import { loadConfig } from '../../src/config/gateway.config';

const problems = (env: NodeJS.ProcessEnv): readonly string[] => {
  try {
    loadConfig(env, '/');
    return [];
  } catch (error) {
    return (error as ConfigError).problems;
  }
};

describe('bus configuration', () => {
  it('is embedded by default', () => {
    expect(loadConfig({}, '/').bus).toEqual({ kind: 'embedded' });
  });

  it('kafka takes brokers, topic, client id and consumer group, with defaults', () => {
    expect(
      loadConfig({ GATEWAY_BUS: 'kafka', KAFKA_BROKERS: 'k1:9092, [::1]:9093' }, '/').bus,
    ).toEqual({
      kind: 'kafka',
      brokers: ['k1:9092', '[::1]:9093'],
      topic: 'gateway.order-events',
      clientId: 'gateway-ledger',
      consumerGroup: 'gateway-webhook-dispatcher',
    });
  });

  it('names every bad value', () => {
    expect(problems({ GATEWAY_BUS: 'rabbit' })).toEqual([
      "GATEWAY_BUS='rabbit' must be embedded or kafka",
    ]);
    expect(problems({ GATEWAY_BUS: 'kafka' })).toEqual([
      'KAFKA_BROKERS is required when GATEWAY_BUS=kafka',
    ]);
    expect(
      problems({ GATEWAY_BUS: 'kafka', KAFKA_BROKERS: 'k1,k2:0', KAFKA_TOPIC: 'a/b' }),
    ).toEqual([
      "KAFKA_BROKERS entry 'k1' must be host:port",
      "KAFKA_BROKERS entry 'k2:0' must be host:port",
      "KAFKA_TOPIC='a/b' must be 1-249 letters, digits, '.', '_' or '-'",
    ]);
  });
});
