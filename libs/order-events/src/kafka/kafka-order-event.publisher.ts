import { Partitioners, type Producer } from 'kafkajs';
import type { OrderEventPublisher } from '../order-event-bus.port';
import type { PublicOrderEvent } from '../public-order-event';
import { OrderEventBusClosedError } from '../in-process-order-event.bus';
import { createKafka, type KafkaConnectionOptions } from './kafka-client';
import { toKafkaMessage } from './kafka-order-event.record';

/**
 * Publishes events to the topic with acks=all: `publish` resolves once every in-sync replica
 * has each record. Connects on first use, so a broker that is down at start-up delays
 * publishing, not the gateway. Not the idempotent producer (librdkafka's mock cluster, used in
 * the tests, lacks it): a retried send may write a record twice, which at-least-once allows.
 * One request in flight keeps retries from reordering a partition.
 */
export class KafkaOrderEventPublisher implements OrderEventPublisher {
  private readonly producer: Producer;
  private connecting: Promise<void> | undefined;
  private closed = false;

  constructor(private readonly options: KafkaConnectionOptions) {
    this.producer = createKafka(options).producer({
      createPartitioner: Partitioners.DefaultPartitioner,
      idempotent: false,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: true,
      // Few quick retries here; the relay backs off and retries the whole batch after that.
      retry: { retries: 3, initialRetryTime: 100, maxRetryTime: 2_000 },
    });
  }

  async publish(events: readonly PublicOrderEvent[]): Promise<void> {
    if (this.closed) throw new OrderEventBusClosedError();
    if (events.length === 0) return;
    await this.connect();
    await this.producer.send({
      topic: this.options.topic,
      acks: -1,
      messages: events.map(toKafkaMessage),
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.producer.disconnect();
  }

  private connect(): Promise<void> {
    this.connecting ??= this.producer.connect().catch((error: unknown) => {
      this.connecting = undefined;
      throw error;
    });
    return this.connecting;
  }
}
