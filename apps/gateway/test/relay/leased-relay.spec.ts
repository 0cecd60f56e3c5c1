import { EventStoreLease, InMemoryEventStore, type EventStore } from '@gateway/event-store';
import type { OrderEventPublisher, PublicOrderEvent } from '@gateway/order-events';
import { LeasedRelay } from '../../src/relay/leased-relay';
import { OrderEventRelay } from '../../src/relay/order-event.relay';
import { appendOrders, retry, silent, toPublic, until } from './relay-fixtures';

/** A node of the cluster: its relay, what it published, and a cut that isolates it. */
interface Node {
  readonly id: string;
  readonly relay: LeasedRelay;
  readonly published: PublicOrderEvent[];
  /** From now on its store calls and publishes fail, as for a node cut off or killed. */
  cut(): void;
}

describe('LeasedRelay', () => {
  let store: InMemoryEventStore;
  const nodes: Node[] = [];

  const startNode = (id: string, durationMs: number): Node => {
    let cut = false;
    const unreachable = () => Promise.reject(new Error(`${id} is cut off`));
    const leaseStore: Pick<EventStore, 'appendToStream' | 'readStream'> = {
      appendToStream: (stream, events, expected) =>
        cut ? unreachable() : store.appendToStream(stream, events, expected),
      readStream: (stream, options) => (cut ? unreachable() : store.readStream(stream, options)),
    };
    const published: PublicOrderEvent[] = [];
    const publisher: OrderEventPublisher = {
      publish: async (events) => {
        if (cut) return unreachable();
        published.push(...events);
      },
      close: async () => undefined,
    };
    const lease = new EventStoreLease(leaseStore, {
      name: 'relay-lease',
      holderId: id,
      durationMs,
    });
    const relay = new LeasedRelay(
      lease,
      (checkpoints) =>
        new OrderEventRelay(store, toPublic, publisher, checkpoints, silent, { retry }),
      silent,
      durationMs / 3,
    );
    relay.start();
    const node = { id, relay, published, cut: () => void (cut = true) };
    nodes.push(node);
    return node;
  };
  const leaders = () => nodes.filter((n) => n.relay.status().role === 'leader');
  const ids = (events: PublicOrderEvent[]) => events.map((e) => e.eventId);
  const orderEventIds = async () =>
    (await store.readAll({ maxCount: 10_000, streamPrefix: 'order:' })).map((e) => e.eventId);

  beforeEach(() => {
    store = new InMemoryEventStore();
  });
  afterEach(async () => {
    await Promise.all(nodes.splice(0).map((n) => n.relay.stop()));
    await store.close();
  });

  it('three nodes: exactly one publishes, every event once; the others stand by', async () => {
    const three = ['a', 'b', 'c'].map((id) => startNode(id, 300));
    await until(() => leaders().length === 1);
    await appendOrders(store, 20, 3);
    await until(() => three.flatMap((n) => n.published).length >= 60);
    // Several lease periods: the holder renews, nobody takes over.
    await new Promise((resolve) => setTimeout(resolve, 700));
    const publishing = three.filter((n) => n.published.length > 0);
    expect(publishing).toHaveLength(1);
    expect(ids(publishing[0].published)).toEqual(await orderEventIds());
    expect(three.map((n) => n.relay.status().role).sort()).toEqual([
      'leader',
      'standby',
      'standby',
    ]);
    expect(three.map((n) => n.relay.status().term)).toEqual([1, 1, 1]);
    expect(three.map((n) => n.relay.status().state).filter((s) => s === 'standby')).toHaveLength(2);
  });

  it('the leader cut off: it stops by itself, a standby takes over from the checkpoint, nothing lost', async () => {
    const three = ['a', 'b', 'c'].map((id) => startNode(id, 300));
    await until(() => leaders().length === 1);
    const [first] = leaders();
    await appendOrders(store, 10, 2);
    await until(() => first.published.length === 20);
    // Renewed with the checkpoint (every 100 ms) before the cut: none of these is repeated.
    await new Promise((resolve) => setTimeout(resolve, 250));
    first.cut();
    await appendOrders(store, 10, 2);
    await until(() => first.relay.status().role === 'standby');
    // It stopped on its own clock before any standby could take over (a third of the lease).
    expect(leaders().map((n) => n.id)).toEqual([]);
    await until(() => leaders().length === 1 && leaders()[0] !== first);
    const [second] = leaders();
    await until(() => second.published.length === 20);
    expect(second.relay.status().term).toBe(2);
    // The new holder resumed at the old one's checkpoint: nothing lost, nothing repeated.
    const all = await orderEventIds();
    expect(ids(first.published)).toEqual(all.slice(0, 20));
    expect(ids(second.published)).toEqual(all.slice(20));
    expect(three.filter((n) => n !== first && n !== second)[0].published).toEqual([]);
  });

  it('a holder whose renewals stop stops publishing when its lease runs out, not at its next step', async () => {
    const lease = new EventStoreLease(store, {
      name: 'relay-lease',
      holderId: 'solo',
      durationMs: 300,
    });
    const publisher: OrderEventPublisher = {
      publish: async () => undefined,
      close: async () => undefined,
    };
    // Its next step is a minute away: only the lease's own deadline (200 ms) can stop it sooner.
    const relay = new LeasedRelay(
      lease,
      (checkpoints) =>
        new OrderEventRelay(store, toPublic, publisher, checkpoints, silent, { retry }),
      silent,
      60_000,
    );
    nodes.push({ id: 'solo', relay, published: [], cut: () => undefined });
    relay.start();
    await until(() => relay.status().role === 'leader');
    await until(() => relay.status().role === 'standby', 5_000);
    expect(relay.status().state).toBe('standby');
  });

  it('a clean stop releases the lease: a standby takes over at its next step, not after expiry', async () => {
    const [a, b] = [startNode('a', 3_000), startNode('b', 3_000)];
    await until(() => leaders().length === 1);
    const [first, second] = leaders()[0] === a ? [a, b] : [b, a];
    await appendOrders(store, 5, 2);
    await until(() => first.published.length === 10);
    const stoppedAt = Date.now();
    await first.relay.stop();
    nodes.splice(nodes.indexOf(first), 1);
    await until(() => second.relay.status().role === 'leader');
    expect(Date.now() - stoppedAt).toBeLessThan(1_500);
    await appendOrders(store, 5, 1);
    await until(() => second.published.length === 5);
    expect(second.relay.status()).toMatchObject({ term: 2, eventsPublished: 5 });
    expect(first.relay.status().role).toBe('standby');
  });
});
