import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryEventStore, type EventStore } from '@gateway/event-store';
import type { PublicOrderEvent } from '@gateway/order-events';
import { authorize } from '../../../libs/domain/test/order.fixtures';
import { ClusterDeliveryStore } from '../src/cluster/cluster-delivery.store';
import { DeliveryReadModel } from '../src/cluster/delivery-read-model';
import { partitionEvent, partitionStreamId } from '../src/cluster/partition-events';
import { PartitionLostError, PartitionSchedule } from '../src/cluster/partition-schedule';
import { SqliteDeliveryStore } from '../src/delivery/sqlite-delivery.store';
import { WebhookDispatcher } from '../src/webhook-dispatcher';
import {
  eventually,
  HandFedConsumer,
  record,
  ScriptedSender,
  testConfig,
  testMerchants,
} from './support/dispatcher-harness';

export interface ClusterContractStore {
  readonly store: EventStore;
  readonly cleanup?: () => Promise<void>;
}

const TOPIC = 'order-events';
const HANDOVER_MS = 400;
/** The wait before a third attempt: long enough to hand a partition over meanwhile. */
const RETRY_MS = 600;

/** One dispatcher of the group: its cluster queue, hand-fed consumer and sender. */
async function dispatcherOn(store: EventStore, sender: ScriptedSender) {
  const queue = new ClusterDeliveryStore({
    store,
    topic: TOPIC,
    handoverMs: HANDOVER_MS,
    pollMs: 50,
  });
  const consumer = new HandFedConsumer();
  const dispatcher = new WebhookDispatcher({
    config: testConfig({ retryDelaysMs: [0, RETRY_MS, RETRY_MS] }),
    deliveries: queue,
    merchants: testMerchants,
    consumer,
    sender,
  });
  await dispatcher.start();
  return {
    queue,
    sender,
    feed: async (events: readonly PublicOrderEvent[], partition: number) => {
      for (const event of events) await consumer.feed(event, partition);
    },
    /** Stops sending and releases every partition, as SIGTERM does. */
    close: async () => {
      await dispatcher.close(1000);
      await queue.close();
    },
  };
}

const authorized = (store: EventStore, orderId: string, url: string) =>
  record(store, {
    ...authorize({ transactionId: 'a', amount: 1000 }),
    merchantId: 'TESTA',
    orderId,
    notificationUrl: url,
  });

const attemptsOf = (senders: ScriptedSender[], url: string) =>
  senders.flatMap((s) => s.to(url)).map((r) => r.headers['x-notification-attempt']);

/**
 * Several dispatchers sharing the order events topic, each scheduling the partitions it owns in
 * the event store (libs/webhooks/src/cluster): run against every event store adapter.
 */
export function describeClusterDeliveryContract(
  name: string,
  factory: () => Promise<ClusterContractStore>,
): void {
  describe(`cluster delivery schedules: ${name}`, () => {
    let store: EventStore;
    let cleanup: (() => Promise<void>) | undefined;
    const closing: Array<() => Promise<void>> = [];
    const orders = new InMemoryEventStore();

    beforeEach(async () => {
      ({ store, cleanup } = await factory());
    });
    afterEach(async () => {
      for (const close of closing.splice(0)) await close();
      await store.close();
      await cleanup?.();
    });

    const started = async (sender = new ScriptedSender()) => {
      const dispatcher = await dispatcherOn(store, sender);
      closing.push(dispatcher.close);
      return dispatcher;
    };

    it('sends each partition’s deliveries from its owner only; a handed-over partition keeps its retries, none sent twice', async () => {
      let failuresLeft = 2;
      const answer = (url: string) => (url.endsWith('/flaky') && failuresLeft-- > 0 ? 500 : 200);
      const a = await started(new ScriptedSender(answer));
      const b = await started(new ScriptedSender(answer));
      a.queue.onAssigned([0]);
      b.queue.onAssigned([1]);
      const flaky = 'https://shop.example/o-1/flaky';
      const steady = 'https://shop.example/o-2/steady';
      await a.feed(await authorized(orders, 'c1-o-1', flaky), 0);
      await b.feed(await authorized(orders, 'c1-o-2', steady), 1);
      await eventually(() => b.sender.to(steady).length === 1 && a.sender.to(flaky).length === 2);
      expect(a.sender.to(steady)).toHaveLength(0);
      expect(b.sender.to(flaky)).toHaveLength(0);
      // Partition 0 moves to b while its delivery waits for a retry.
      a.queue.onRebalancing();
      b.queue.onRebalancing();
      a.queue.onAssigned([]);
      b.queue.onAssigned([0, 1]);
      await eventually(
        () => b.sender.to(flaky).some((r) => r.headers['x-notification-attempt'] === '3'),
        5000,
      );
      await new Promise((done) => setTimeout(done, 400));
      expect(attemptsOf([a.sender, b.sender], flaky)).toEqual(['1', '2', '3']);
      // The third went from b, on the schedule a set: no sooner than the delay after the second.
      expect(attemptsOf([b.sender], flaky)).toEqual(['3']);
      const [second] = a.sender.to(flaky).slice(1);
      const [third] = b.sender.to(flaky);
      expect(third.at - second.at).toBeGreaterThanOrEqual(RETRY_MS - 20);
      expect(b.sender.to(steady)).toHaveLength(1);
    });

    it('fences a stale owner: once another claimed the partition, its writes are refused', async () => {
      const streamId = partitionStreamId(TOPIC, 7);
      const own = (me: string) => {
        const schedule = new SqliteDeliveryStore(join(mkdtempSync(join(tmpdir(), 'p-')), 'p.db'));
        closing.push(() => schedule.close());
        return new PartitionSchedule(store, streamId, schedule, me);
      };
      const stale = own('stale');
      await stale.claim(0);
      const successor = own('successor');
      // The stale owner neither released nor answered: the successor waits out the hand-over.
      const waited = Date.now();
      await successor.claim(200);
      expect(Date.now() - waited).toBeGreaterThanOrEqual(190);
      await expect(
        stale.write([partitionEvent('RedeliveryRequested', { id: 'x', now: 0 })]),
      ).rejects.toBeInstanceOf(PartitionLostError);
      expect(stale.lost).toBe(true);
      const types = (await store.readStream(streamId)).map((e) => e.type);
      expect(types).toEqual(['PartitionClaimed', 'PartitionClaimed']);
    });

    it('takes back a partition it once held and gave up, after another held it', async () => {
      const a = await started();
      const b = await started();
      const holds = (dispatcher: typeof a, partitions: number[]) =>
        eventually(() => dispatcher.queue.partitions().join() === partitions.join(), 5000);
      a.queue.onAssigned([3]);
      await holds(a, [3]);
      a.queue.onAssigned([]);
      b.queue.onAssigned([3]);
      await holds(b, [3]);
      b.queue.onAssigned([]);
      a.queue.onAssigned([3]);
      await holds(a, [3]);
      await holds(b, []);
    });

    it('records an event once, across owners; dead letters are redelivered through the read model of any node', async () => {
      const dead = 'https://shop.example/o-3/dead';
      let healed = false;
      const answer = (url: string) => (url === dead && !healed ? 503 : 200);
      const a = await started(new ScriptedSender(answer));
      a.queue.onAssigned([2]);
      const events = await authorized(orders, 'c1-o-3', dead);
      await a.feed([...events, ...events], 2);
      const log = new DeliveryReadModel(store);
      closing.push(() => log.close());
      const deadLettered = await eventually(
        () => log.list({ status: 'DEAD_LETTERED', limit: 10 }).deliveries[0],
        5000,
      );
      expect(deadLettered).toMatchObject({ orderId: 'c1-o-3', attempts: 4 });
      // A successor (a released the partition) folds it: the same event is not recorded again.
      await a.close();
      closing.splice(closing.indexOf(a.close), 1);
      const b = await started(new ScriptedSender(answer));
      b.queue.onAssigned([2]);
      await b.feed(events, 2);
      healed = true;
      expect(await log.redeliverDeadLettered('TESTA', Date.now())).toBe(1);
      expect(log.get(deadLettered.id)).toMatchObject({ status: 'PENDING' });
      await eventually(() => log.get(deadLettered.id)?.status === 'DELIVERED', 5000);
      expect(b.sender.to(dead).map((r) => r.headers['x-notification-attempt'])).toEqual(['5']);
      expect(log.get(deadLettered.id)!.attemptLog.map((t) => t.statusCode)).toEqual([
        503, 503, 503, 503, 200,
      ]);
    });
  });
}
