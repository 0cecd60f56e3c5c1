import type { BusConfig } from '@gateway/config';
import type { PublicOrderEvent } from '../public-order-event';
import type { KafkaLog } from './kafka-client';
import {
  KafkaOrderEventConsumer,
  type KafkaOrderEventConsumerOptions,
} from './kafka-order-event.consumer';

type KafkaBus = Extract<BusConfig, { kind: 'kafka' }>;

/** The order-events consumer of the webhook dispatcher (embedded or standalone), logging to `log`. */
export function kafkaOrderEventConsumer(
  bus: KafkaBus,
  log: KafkaLog,
  sessionTimeoutMs?: number,
  /** Partition ownership hooks of a dispatcher sharing the group with others. */
  ownership: Pick<KafkaOrderEventConsumerOptions, 'onRebalancing' | 'onAssigned'> = {},
): KafkaOrderEventConsumer {
  return new KafkaOrderEventConsumer({
    ...bus,
    groupId: bus.consumerGroup,
    log,
    // A fetch waits this long for records (kafkajs default 5 s): closing waits for it, and the
    // mock cluster of the tests and benches answers no sooner (commit → delivery p50 1 s at 1 s).
    maxWaitTimeMs: 250,
    ...(sessionTimeoutMs ? { sessionTimeoutMs } : {}),
    onHandlerError: handlerFailed(log),
    onUnreadable: (error, at) => log.error({ at }, error.message),
    onConnectionError: (error) =>
      log.warn({ err: (error as Error).message }, 'order event consumer cannot join'),
    ...ownership,
  });
}

export function handlerFailed(log: KafkaLog) {
  return (error: unknown, event: PublicOrderEvent) =>
    log.warn(
      { err: (error as Error)?.message, eventId: event.eventId },
      'order event handler failed; retrying',
    );
}
