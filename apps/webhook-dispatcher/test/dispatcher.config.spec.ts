import { ConfigError } from '@gateway/config';
import { loadDispatcherConfig } from '../src/dispatcher.config';

const KAFKA = { GATEWAY_BUS: 'kafka', KAFKA_BROKERS: 'k1:9092' };

const problems = (env: NodeJS.ProcessEnv): readonly string[] => {
  try {
    loadDispatcherConfig(env, '/srv');
    return [];
  } catch (error) {
    return (error as ConfigError).problems;
  }
};

describe('standalone dispatcher configuration', () => {
  it('reads the gateway’s variables, with the gateway’s defaults', () => {
    const config = loadDispatcherConfig(
      { ...KAFKA, GATEWAY_WEBHOOK_DISPATCHER: 'external' },
      '/srv',
    );
    expect(config).toMatchObject({
      dataDir: '/srv/data',
      merchantsFile: '/srv/config/merchants.json',
      bus: {
        brokers: ['k1:9092'],
        topic: 'gateway.order-events',
        consumerGroup: 'gateway-webhook-dispatcher',
      },
      sessionTimeoutMs: 30_000,
      webhooks: { deliveryDb: '/srv/data/webhooks.db', delivery: { timeoutMs: 15_000 } },
      opsPort: 8081,
      logLevel: 'info',
    });
  });

  it('follows GATEWAY_DATA_DIR, GATEWAY_WEBHOOK_DB and its own port', () => {
    const config = loadDispatcherConfig(
      {
        ...KAFKA,
        GATEWAY_DATA_DIR: 'var',
        GATEWAY_WEBHOOK_DB: '/shared/webhooks.db',
        GATEWAY_DISPATCHER_PORT: '0',
        KAFKA_SESSION_TIMEOUT: '6s',
      },
      '/srv',
    );
    expect(config).toMatchObject({
      dataDir: '/srv/var',
      webhooks: { deliveryDb: '/shared/webhooks.db' },
      opsPort: 0,
      sessionTimeoutMs: 6000,
    });
  });

  it('names every bad value, the gateway’s rules included', () => {
    expect(problems({})).toEqual([
      "GATEWAY_BUS='embedded' must be kafka: the standalone dispatcher consumes the order events topic (the embedded bus lives inside the gateway process)",
    ]);
    expect(
      problems({
        ...KAFKA,
        KAFKA_TOPIC: 'a/b',
        GATEWAY_WEBHOOK_DISPATCHER: 'embedded',
        GATEWAY_WEBHOOK_CONCURRENCY: '0',
        KAFKA_SESSION_TIMEOUT: '2h',
        GATEWAY_DISPATCHER_PORT: '70000',
        GATEWAY_LOG_LEVEL: 'loud',
      }),
    ).toEqual([
      "KAFKA_TOPIC='a/b' must be 1-249 letters, digits, '.', '_' or '-'",
      "GATEWAY_WEBHOOK_DISPATCHER='embedded' means the gateway delivers webhooks itself: set it to external for the gateway and this dispatcher",
      "GATEWAY_WEBHOOK_CONCURRENCY='0' must be a whole number from 1 to 10000",
      "KAFKA_SESSION_TIMEOUT='2h' must be a duration from 6s to 30m",
      "GATEWAY_DISPATCHER_PORT='70000' must be a whole number from 0 to 65535",
      "GATEWAY_LOG_LEVEL='loud' must be one of trace, debug, info, warn, error, fatal, silent",
    ]);
  });

  it('schedules in the event store with GATEWAY_WEBHOOK_STORE=event-store, on KurrentDB only', () => {
    const kurrentdb = {
      GATEWAY_EVENT_STORE: 'kurrentdb',
      KURRENTDB_CONNECTION_STRING: 'kurrentdb://127.0.0.1:2113?tls=false',
    };
    const config = loadDispatcherConfig({
      ...KAFKA,
      ...kurrentdb,
      GATEWAY_WEBHOOK_STORE: 'event-store',
    });
    expect(config.webhooks.store).toBe('event-store');
    expect(config.eventStore).toEqual({
      kind: 'kurrentdb',
      connectionString: kurrentdb.KURRENTDB_CONNECTION_STRING,
    });
    expect(loadDispatcherConfig(KAFKA).webhooks.store).toBe('sqlite');
    expect(problems({ ...KAFKA, GATEWAY_WEBHOOK_STORE: 'event-store' })).toEqual([
      'GATEWAY_WEBHOOK_STORE=event-store needs GATEWAY_EVENT_STORE=kurrentdb: the delivery schedules live in the event store every node shares',
    ]);
    expect(problems({ ...KAFKA, GATEWAY_WEBHOOK_STORE: 'kafka' })).toEqual([
      "GATEWAY_WEBHOOK_STORE='kafka' must be sqlite or event-store",
    ]);
  });
});
