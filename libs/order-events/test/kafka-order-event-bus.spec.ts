import {
  describeWithKafka,
  readTopic,
  startKafkaMockCluster,
  type KafkaMockCluster,
} from '../../../test/support/kafka-mock-cluster';
import { Kafka, logLevel } from 'kafkajs';
import {
  KafkaOrderEventConsumer,
  KafkaOrderEventPublisher,
  type PublicOrderEvent,
  type OrderEventHandler,
} from '../src';
import { testEvent } from './events';

const retry = { initialMs: 10, maxMs: 50 };
// The broker's least: a member that left without a word is replaced sooner.
const sessionTimeoutMs = 6000;

function envelope(orderId: string, revision: number, position: number): PublicOrderEvent {
  return testEvent(orderId, revision, {
    eventId: `evt-${orderId}-${revision}`,
    type: revision === 0 ? 'AuthorizationProcessed' : 'CaptureProcessed',
    merchantId: 'TESTKAFKA',
    position: String(position),
    order: { id: orderId, totalCapturedAmount: revision },
  });
}

/** Orders o0…o{orders-1}, `revisions` events each, interleaved as commits would be. */
function interleaved(orders: number, revisions: number): PublicOrderEvent[] {
  const out: PublicOrderEvent[] = [];
  for (let r = 0; r < revisions; r++)
    for (let o = 0; o < orders; o++) out.push(envelope(`o${o}`, r, out.length + 1));
  return out;
}

async function until(condition: () => boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describeWithKafka()('Kafka order event bus (librdkafka mock cluster)', () => {
  let cluster: KafkaMockCluster;
  const topic = 'bus-test';
  const connection = () => ({ brokers: cluster.brokers, topic, clientId: 'bus-test' });
  const consumers: KafkaOrderEventConsumer[] = [];
  const consume = async (groupId: string, handle: OrderEventHandler) => {
    const consumer = new KafkaOrderEventConsumer({
      ...connection(),
      groupId,
      retry,
      sessionTimeoutMs,
    });
    consumers.push(consumer);
    await consumer.start(handle);
    return consumer;
  };

  beforeAll(async () => {
    cluster = await startKafkaMockCluster(topic);
  });
  afterAll(async () => {
    await Promise.all(consumers.map((c) => c.close()));
    await cluster.stop();
  });

  it('writes each envelope keyed by merchant and order, with its headers and JSON value', async () => {
    const publisher = new KafkaOrderEventPublisher(connection());
    const sent = interleaved(30, 3);
    await publisher.publish(sent);
    await publisher.close();

    const records = await readTopic(cluster.brokers, topic, (r) => r.length >= sent.length);
    expect(records).toHaveLength(sent.length);
    for (const record of records) {
      const value = JSON.parse(record.value) as PublicOrderEvent;
      expect(sent).toContainEqual(value);
      expect(record.key).toBe(`TESTKAFKA:${value.orderId}`);
      expect(record.headers).toEqual({
        'event-id': value.eventId,
        'event-type': value.type,
        'stream-revision': String(value.revision),
        'global-position': value.position,
        'merchant-id': 'TESTKAFKA',
        'spec-version': '2',
      });
    }
    // One order, one partition, revisions in order.
    const byOrder = new Map<string, typeof records>();
    for (const r of records) byOrder.set(r.key, [...(byOrder.get(r.key) ?? []), r]);
    for (const list of byOrder.values()) {
      expect(new Set(list.map((r) => r.partition)).size).toBe(1);
      expect(list.map((r) => JSON.parse(r.value).revision)).toEqual([0, 1, 2]);
    }
    expect(new Set(records.map((r) => r.partition)).size).toBeGreaterThan(1);
  });

  it('consumer: every envelope once per group, per order in order, retrying a failing handler', async () => {
    const failOnce = new Set(['evt-o3-1', 'evt-o7-0']);
    const handled: PublicOrderEvent[] = [];
    let failures = 0;
    await consume('group-a', async (e) => {
      if (failOnce.delete(e.eventId)) {
        failures++;
        throw new Error('handler not ready');
      }
      handled.push(e);
    });
    await until(() => handled.length >= 90);
    expect(failures).toBe(2);
    expect(new Set(handled.map((e) => e.eventId)).size).toBe(90);
    for (let o = 0; o < 30; o++)
      expect(handled.filter((e) => e.orderId === `o${o}`).map((e) => e.revision)).toEqual([
        0, 1, 2,
      ]);
  });

  it('consumer: different orders are handled at the same time, one order’s records never', async () => {
    const running = new Set<string>();
    const handled: PublicOrderEvent[] = [];
    let mostAtOnce = 0;
    let overlapped = false;
    await consume('group-d', async (e) => {
      overlapped ||= running.has(e.orderId);
      running.add(e.orderId);
      mostAtOnce = Math.max(mostAtOnce, running.size);
      await new Promise((resolve) => setTimeout(resolve, 20));
      running.delete(e.orderId);
      handled.push(e);
    });
    await until(() => handled.length >= 90);
    // Four partitions at a time would allow at most four without batch concurrency.
    expect(mostAtOnce).toBeGreaterThan(4);
    expect(overlapped).toBe(false);
    for (let o = 0; o < 30; o++)
      expect(handled.filter((e) => e.orderId === `o${o}`).map((e) => e.revision)).toEqual([
        0, 1, 2,
      ]);
  });

  it('consumer commits after handling: a restarted group member resumes after what it handled', async () => {
    const first: string[] = [];
    const consumer = await consume('group-b', async (e) => void first.push(e.eventId));
    await until(() => first.length >= 90);
    await consumer.close();

    const publisher = new KafkaOrderEventPublisher(connection());
    await publisher.publish([envelope('late', 0, 1000)]);
    await publisher.close();

    const second: string[] = [];
    await consume('group-b', async (e) => void second.push(e.eventId));
    await until(() => second.includes('evt-late-0'));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(second).toEqual(['evt-late-0']);
  });

  it('consumer passes over a record that is not an envelope, and reports it', async () => {
    const other = 'bus-test-unreadable';
    const raw = new KafkaOrderEventPublisher({ ...connection(), topic: other });
    await raw.publish([envelope('x', 0, 1)]);
    await raw.close();
    // A foreign record (no spec-version header), and one of spec version 1 (the stored event).
    const producer = new Kafka({ brokers: cluster.brokers, logLevel: logLevel.NOTHING }).producer();
    await producer.connect();
    await producer.send({ topic: other, messages: [{ key: 'TESTKAFKA:x', value: 'not json' }] });
    await producer.send({
      topic: other,
      messages: [
        {
          key: 'TESTKAFKA:x',
          value: JSON.stringify({ specVersion: 1, eventId: 'v1', data: {} }),
          headers: { 'spec-version': '1' },
        },
      ],
    });
    await producer.disconnect();
    const publisher = new KafkaOrderEventPublisher({ ...connection(), topic: other });
    await publisher.publish([envelope('x', 1, 2)]);
    await publisher.close();

    const handled: string[] = [];
    const unreadable: string[] = [];
    const consumer = new KafkaOrderEventConsumer({
      ...connection(),
      topic: other,
      groupId: 'group-c',
      retry,
      sessionTimeoutMs,
      onUnreadable: (error) => unreadable.push(error.message),
    });
    consumers.push(consumer);
    await consumer.start(async (e) => void handled.push(e.eventId));
    await until(() => handled.length === 2);
    expect(handled).toEqual(['evt-x-0', 'evt-x-1']);
    expect(unreadable).toEqual([
      "Not a public order event: spec version 'undefined'",
      "Not a public order event: spec version '1'",
    ]);
  });
});
