/**
 * Relay throughput: events/s from a pre-filled embedded store to the bus, until the checkpoint
 * reaches the store's head, each event built into its public event on the way. Kafka: librdkafka's mock cluster through kcat (three brokers on this
 * machine, acks=all). Embedded: the in-process bus with one consumer that does nothing.
 * `leased`: the embedded bus again, the relay under the event-store lease (LeasedRelay, as on a
 * cluster: the checkpoint kept in memory and carried by the renewals) instead of relay.db.
 *   node dist/bench/relay.bench.js   (RELAY_BENCH_EVENTS, RELAY_BENCH_BATCH change the run)
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventStoreLease, SqliteEventStore, type GlobalPosition } from '../libs/event-store/src';
import {
  InProcessOrderEventBus,
  KafkaOrderEventPublisher,
  type OrderEventPublisher,
} from '../libs/order-events/src';
import { PublicOrderEvents } from '../apps/gateway/src/order-events/public-order-events';
import { LeasedRelay } from '../apps/gateway/src/relay/leased-relay';
import { OrderEventRelay } from '../apps/gateway/src/relay/order-event.relay';
import {
  SqliteRelayCheckpointStore,
  type RelayCheckpointStore,
} from '../apps/gateway/src/relay/relay-checkpoint.store';
import { startKafkaMockCluster } from '../test/support/kafka-mock-cluster';

const EVENTS = Number(process.env.RELAY_BENCH_EVENTS ?? 50_000);
const BATCH = Number(process.env.RELAY_BENCH_BATCH ?? 250);
const silent = { info: () => undefined, warn: () => undefined };

/** An order as the gateway records it: created, authorized (about 1 KB of JSON), captured. */
function orderEvents(order: number) {
  const orderId = `order-${order}`;
  const time = new Date(Date.UTC(2026, 0, 1, 0, 0, order % 60)).toISOString();
  const transaction = (id: string, type: string, extra: object = {}) => ({
    id,
    type,
    amount: 10_000 + order,
    currency: 'USD',
    gatewayCode: 'APPROVED',
    processor: {
      response: { acquirerCode: '00', acquirerMessage: 'Approved' },
      transaction: { authorizationCode: '970511', receipt: '237234153580' },
    },
    echo: { order: { amount: '10.00', currency: 'USD', reference: orderId } },
    timeOfRecord: time,
    apiVersion: 100,
    requestHash: 'k3bXr2o1y0Jx9V1n4ZQm8aQ6l0bSg7cJtR5uWv2Yx3A',
    ...extra,
  });
  return [
    {
      type: 'OrderCreated',
      data: { merchantId: 'BENCHMERCHANT', orderId, currency: 'USD', creationTime: time },
    },
    {
      type: 'AuthorizationProcessed',
      data: transaction('auth-1', 'AUTHORIZATION', {
        sourceOfFunds: {
          type: 'CARD',
          provided: {
            card: {
              brand: 'MASTERCARD',
              number: '512345xxxxxx0008',
              expiry: { month: '1', year: '39' },
              fingerprint: 'q7pPz0n3c1wWm3cXcJbq5nJr8m0kq2fW1bTtQ2d4Zx8',
            },
          },
        },
      }),
    },
    { type: 'CaptureProcessed', data: transaction('capture-1', 'CAPTURE') },
  ];
}

async function fill(store: SqliteEventStore): Promise<void> {
  const orders = Math.ceil(EVENTS / 3);
  for (let start = 0; start < orders; start += 500) {
    await Promise.all(
      Array.from({ length: Math.min(500, orders - start) }, (_, i) =>
        store.appendToStream(
          `order:BENCHMERCHANT:order-${start + i}`,
          orderEvents(start + i).map((event) => ({
            eventId: randomUUID(),
            ...event,
            metadata: { apiOperation: 'AUTHORIZE', apiVersion: 100 },
          })),
          'no_stream',
        ),
      ),
    );
  }
}

/** Publishes until the checkpoint reaches `head`: the last order event (the lease's come after). */
async function measure(
  name: string,
  store: SqliteEventStore,
  head: GlobalPosition,
  publisher: OrderEventPublisher,
  leased = false,
) {
  const dir = mkdtempSync(join(tmpdir(), 'relay-bench-cp-'));
  const checkpoints = new SqliteRelayCheckpointStore(join(dir, 'relay.db'), name);
  const publicEvents = new PublicOrderEvents(store, { find: () => undefined });
  const relayFrom = (from: RelayCheckpointStore) =>
    new OrderEventRelay(store, (batch) => publicEvents.forBus(batch), publisher, from, silent, {
      batchSize: BATCH,
    });
  const lease = new EventStoreLease(store, { name, holderId: 'bench', durationMs: 10_000 });
  const relay = leased
    ? new LeasedRelay(lease, relayFrom, silent, 10_000 / 3)
    : relayFrom(checkpoints);
  const started = performance.now();
  relay.start();
  while ((relay.status().checkpoint ?? 0n) < head)
    await new Promise((resolve) => setTimeout(resolve, 5));
  const seconds = (performance.now() - started) / 1000;
  await relay.stop();
  checkpoints.close();
  rmSync(dir, { recursive: true, force: true });
  const { eventsPublished, publishFailures } = relay.status();
  console.log(
    `${name.padEnd(10)} ${eventsPublished} events in ${seconds.toFixed(2)} s: ` +
      `${Math.round(eventsPublished / seconds).toLocaleString('en')} events/s ` +
      `(batch ${BATCH}, failures ${publishFailures})`,
  );
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'relay-bench-'));
  const store = await SqliteEventStore.open({ filename: join(dir, 'events.db') });
  const cluster = await startKafkaMockCluster('bench.order-events');
  try {
    await fill(store);
    const head = (await store.headPosition())!;
    const bus = new InProcessOrderEventBus();
    await bus.start(async () => undefined);
    await measure('embedded', store, head, bus);
    await measure('leased', store, head, bus, true);
    const kafka = new KafkaOrderEventPublisher({
      brokers: cluster.brokers,
      topic: 'bench.order-events',
      clientId: 'relay-bench',
    });
    await measure('kafka', store, head, kafka);
    await kafka.close();
  } finally {
    await store.close();
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
