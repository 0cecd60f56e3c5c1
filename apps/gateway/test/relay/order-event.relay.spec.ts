import { SqliteEventStore } from '@gateway/event-store';
import { InProcessOrderEventBus, type PublicOrderEvent } from '@gateway/order-events';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OrderEventRelay } from '../../src/relay/order-event.relay';
import { SqliteRelayCheckpointStore } from '../../src/relay/relay-checkpoint.store';
import { appendOrders, retry, silent, toPublic, until } from './relay-fixtures';

describe('OrderEventRelay', () => {
  let dir: string;
  let store: SqliteEventStore;
  let checkpoints: SqliteRelayCheckpointStore;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'relay-'));
    store = await SqliteEventStore.open({ filename: join(dir, 'events.db') });
    checkpoints = new SqliteRelayCheckpointStore(join(dir, 'relay.db'), 'embedded');
  });
  afterEach(async () => {
    await store.close();
    checkpoints.close();
  });

  it('publishes every order event, per order in revision order, then checkpoints the head', async () => {
    await appendOrders(store, 20, 3); // caught up from the store…
    await store.appendToStream(
      'other:stream',
      [{ eventId: randomUUID(), type: 'NotAnOrder', data: {}, metadata: {} }],
      'any',
    );
    const bus = new InProcessOrderEventBus({ retry });
    const received: PublicOrderEvent[] = [];
    await bus.start(async (e) => void received.push(e));
    const relay = new OrderEventRelay(store, toPublic, bus, checkpoints, silent, {
      batchSize: 7,
      retry,
    });
    relay.start();
    await appendOrders(store, 10, 2); // …then live
    await until(() => received.length === 80);
    await relay.stop();

    expect(received.every((e) => e.merchantId === 'TESTM')).toBe(true);
    expect(new Set(received.map((e) => e.eventId)).size).toBe(80);
    const revisions = new Map<string, number[]>();
    for (const e of received)
      revisions.set(e.orderId, [...(revisions.get(e.orderId) ?? []), e.revision]);
    for (const [order, seen] of revisions)
      expect(seen).toEqual([0, 1, 2, 3, 4].slice(0, Number(order.slice(1)) < 10 ? 5 : 3));
    const lastOrderEvent = (await store.readAll({ streamPrefix: 'order:', maxCount: 1000 })).at(
      -1,
    )!;
    expect(checkpoints.load()).toBe(lastOrderEvent.position);
    expect(relay.status()).toMatchObject({ state: 'stopped', eventsPublished: 80 });
  });

  it('holds the checkpoint while the bus refuses, retries the same batch, and skips nothing', async () => {
    await appendOrders(store, 5, 2);
    const published: string[] = [];
    let refuse = 6;
    const relay = new OrderEventRelay(
      store,
      toPublic,
      {
        publish: async (events) => {
          if (refuse-- > 0) throw new Error('broker unavailable');
          published.push(...events.map((e) => e.eventId));
        },
        close: async () => undefined,
      },
      checkpoints,
      silent,
      { batchSize: 4, retry },
    );
    relay.start();
    await until(() => relay.status().publishFailures >= 3);
    expect(relay.status().state).toBe('retrying');
    expect(checkpoints.load()).toBeUndefined();
    await until(() => published.length === 10);
    await relay.stop();
    const all = await store.readAll();
    expect(published).toEqual(all.map((e) => e.eventId));
    expect(checkpoints.load()).toBe(all.at(-1)!.position);
    expect(relay.status().publishFailures).toBe(6);
  });

  it('resumes after the checkpoint: a restarted relay publishes only what is new', async () => {
    await appendOrders(store, 3, 1);
    const bus = new InProcessOrderEventBus({ retry });
    const received: string[] = [];
    await bus.start(async (e) => void received.push(e.eventId));
    const first = new OrderEventRelay(store, toPublic, bus, checkpoints, silent, { retry });
    first.start();
    await until(() => received.length === 3);
    await first.stop();

    await appendOrders(store, 3, 1); // orders o0..o2 get revision 1
    const second = new OrderEventRelay(store, toPublic, bus, checkpoints, silent, { retry });
    second.start();
    await until(() => received.length === 6);
    await second.stop();
    expect(new Set(received).size).toBe(6);
  });

  it('stop() does not wait forever for a publish the bus never acknowledges', async () => {
    await appendOrders(store, 1, 1);
    const relay = new OrderEventRelay(
      store,
      toPublic,
      { publish: () => new Promise(() => undefined), close: async () => undefined },
      checkpoints,
      silent,
      { stopTimeoutMs: 50 },
    );
    relay.start();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await relay.stop();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(checkpoints.load()).toBeUndefined();
  });
});
