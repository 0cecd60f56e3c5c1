import { ConfigError } from '@gateway/config';
import { KurrentDbEventStore } from '@gateway/event-store';
import { DeliveryReadModel, partitionEvent, partitionStreamId } from '@gateway/webhooks';
import { join } from 'node:path';
import { delivery } from '../../../libs/webhooks/test/delivery-reader.contract';
import {
  startKurrentDbStandin,
  type KurrentDbStandin,
} from '../../../test/support/kurrentdb-standin/standin-server';
import { loadConsoleConfig } from '../src/console.config';
import { Deliveries } from '../src/webhooks/deliveries';

async function eventually<T>(read: () => T | undefined, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('never became readable');
    await new Promise((done) => setTimeout(done, 20));
  }
}

describe("the console reads the gateway's deliveries where the gateway keeps them", () => {
  const clustered = (connectionString: string) => ({
    GATEWAY_DATA_DIR: '/srv/gateway',
    GATEWAY_EVENT_STORE: 'kurrentdb',
    KURRENTDB_CONNECTION_STRING: connectionString,
    GATEWAY_WEBHOOK_STORE: 'event-store',
  });

  it("takes the gateway's variables and rule: the file by default, the event store on KurrentDB", () => {
    expect(loadConsoleConfig({ GATEWAY_DATA_DIR: '/srv/gateway' }).webhooks).toMatchObject({
      store: 'sqlite',
      deliveryDb: join('/srv/gateway', 'webhooks.db'),
    });
    expect(loadConsoleConfig(clustered('kurrentdb://h:2113?tls=false')).webhooks.store).toBe(
      'event-store',
    );
    const refused = () => loadConsoleConfig({ GATEWAY_WEBHOOK_STORE: 'event-store' });
    expect(refused).toThrow(ConfigError);
    expect(refused).toThrow(
      /GATEWAY_WEBHOOK_STORE=event-store needs GATEWAY_EVENT_STORE=kurrentdb/,
    );
  });

  describe('on KurrentDB (protocol stand-in)', () => {
    let standin: KurrentDbStandin;
    let gatewayStore: KurrentDbEventStore;
    let gateway: DeliveryReadModel;
    let deliveries: Deliveries;

    beforeAll(async () => {
      standin = await startKurrentDbStandin();
      gatewayStore = new KurrentDbEventStore({ connectionString: standin.connectionString });
      // A dispatcher's schedule: one delivered, one dead-lettered after a 503.
      const dispatched = [
        partitionEvent('DeliveryRecorded', { delivery: delivery(1, 'SHOPA', 'o1'), now: 1_000 }),
        partitionEvent('DeliveryRecorded', { delivery: delivery(2, 'SHOPA', 'o2'), now: 1_000 }),
        partitionEvent('AttemptCompleted', {
          delivery: delivery(2, 'SHOPA', 'o2'),
          attempt: {
            attempt: 1,
            startedAt: new Date(2_000).toISOString(),
            latencyMs: 40,
            statusCode: 503,
            outcome: 'FAILED',
            error: 'HTTP 503',
          },
          consequence: { status: 'DEAD_LETTERED' },
          now: 2_000,
        }),
      ];
      await gatewayStore.appendToStream(partitionStreamId('order-events', 0), dispatched, 'any');
      gateway = new DeliveryReadModel(gatewayStore);
    });

    afterAll(async () => {
      await deliveries?.close();
      await gateway?.close();
      await gatewayStore?.close();
      await standin?.stop();
    });

    it('shows the deliveries once caught up, with attempts, and never appends', async () => {
      const config = loadConsoleConfig(clustered(standin.connectionString));
      const head = await gatewayStore.headPosition();
      deliveries = new Deliveries(config.webhooks, config.eventStore);
      // Not before its first catch-up: a partial list would look like a complete one.
      expect(deliveries.list({ limit: 25 })).toBeUndefined();
      const page = await eventually(() => deliveries.list({ limit: 25 }));
      expect(page.deliveries.map((d) => [d.id, d.status])).toEqual([
        ['event-2', 'DEAD_LETTERED'],
        ['event-1', 'PENDING'],
      ]);
      expect(deliveries.get('event-2')).toMatchObject({
        attemptLog: [{ statusCode: 503, latencyMs: 40, outcome: 'FAILED' }],
      });
      expect(deliveries.get('event-2', 'OTHER')).toBeNull();
      expect(deliveries.ofOrder('SHOPA', 'o1')?.map((d) => d.id)).toEqual(['event-1']);
      expect(deliveries.deadLettered()).toEqual(new Map([['SHOPA', 1]]));
      expect(await gatewayStore.headPosition()).toBe(head);
    });

    it("shows a redelivery the gateway made once settled, as the action's answer does", async () => {
      await gateway.caughtUp();
      expect(await gateway.redeliverDeadLettered('SHOPA', 3_000)).toBe(1);
      await deliveries.settled();
      expect(deliveries.get('event-2')).toMatchObject({ status: 'PENDING', attempts: 1 });
      expect(deliveries.deadLettered()).toEqual(new Map());
    });
  });

  it('answers nothing while the event store cannot be reached, and says why', async () => {
    const warnings: string[] = [];
    const standin = await startKurrentDbStandin();
    const config = loadConsoleConfig(clustered(standin.connectionString));
    await standin.stop();
    const deliveries = new Deliveries(config.webhooks, config.eventStore, (w) => warnings.push(w));
    try {
      await eventually(() => warnings[0]);
      expect(warnings[0]).toMatch(/^webhook deliveries not readable: /);
      expect(deliveries.list({ limit: 25 })).toBeUndefined();
    } finally {
      await deliveries.close();
    }
  });
});
