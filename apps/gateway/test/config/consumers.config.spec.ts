import { loadConfig } from '../../src/config/gateway.config';

const KAFKA = { GATEWAY_BUS: 'kafka', KAFKA_BROKERS: '127.0.0.1:9092' };

describe('GATEWAY_CONSUMERS', () => {
  it('runs every consumer by default, the dispatcher only while it is embedded', () => {
    expect(loadConfig({}).consumers).toEqual({ projector: true, relay: true, dispatcher: true });
    expect(loadConfig({ GATEWAY_WEBHOOK_DISPATCHER: 'external' }).consumers).toEqual({
      projector: true,
      relay: true,
      dispatcher: false,
    });
  });

  it('runs only the consumers listed, or none', () => {
    expect(loadConfig({ GATEWAY_CONSUMERS: ' relay , dispatcher' }).consumers).toEqual({
      projector: false,
      relay: true,
      dispatcher: true,
    });
    expect(loadConfig({ GATEWAY_CONSUMERS: 'none' }).consumers).toEqual({
      projector: false,
      relay: false,
      dispatcher: false,
    });
    expect(loadConfig({ ...KAFKA, GATEWAY_CONSUMERS: 'dispatcher' }).consumers).toEqual({
      projector: false,
      relay: false,
      dispatcher: true,
    });
  });

  it('refuses a name that is no consumer, naming it', () => {
    expect(() => loadConfig({ GATEWAY_CONSUMERS: 'projector,webhooks' })).toThrow(
      "GATEWAY_CONSUMERS='projector,webhooks' must be none or a comma-separated list of projector, relay, dispatcher (not 'webhooks')",
    );
  });

  it('refuses the dispatcher when a standalone one delivers, or when nothing would feed it', () => {
    expect(() =>
      loadConfig({ GATEWAY_CONSUMERS: 'relay,dispatcher', GATEWAY_WEBHOOK_DISPATCHER: 'external' }),
    ).toThrow(/lists the dispatcher, but GATEWAY_WEBHOOK_DISPATCHER=external/);
    expect(() => loadConfig({ GATEWAY_CONSUMERS: 'projector,dispatcher' })).toThrow(
      /lists the dispatcher without the relay: on the embedded bus/,
    );
  });

  it('refuses the embedded dispatcher on partition schedules (GATEWAY_WEBHOOK_STORE=event-store)', () => {
    expect(() =>
      loadConfig({
        ...KAFKA,
        GATEWAY_EVENT_STORE: 'kurrentdb',
        KURRENTDB_CONNECTION_STRING: 'kurrentdb://127.0.0.1:2113?tls=false',
        GATEWAY_WEBHOOK_STORE: 'event-store',
      }),
    ).toThrow(/GATEWAY_WEBHOOK_STORE=event-store needs GATEWAY_WEBHOOK_DISPATCHER=external/);
  });
});
