import {
  KafkaOrderEventConsumer,
  type KafkaLog,
  type OrderEventEnvelope,
} from '@gateway/order-events';
import type { BusConfig } from '../config/gateway.config';

type KafkaBus = Extract<BusConfig, { kind: 'kafka' }>;

/** The order-events consumer of the webhook dispatcher (embedded or standalone), logging to `log`. */
export function kafkaOrderEventConsumer(
  bus: KafkaBus,
  log: KafkaLog,
  sessionTimeoutMs?: number,
): KafkaOrderEventConsumer {
  return new KafkaOrderEventConsumer({
    ...bus,
    groupId: bus.consumerGroup,
    log,
    // An idle fetch waits this long for records; closing waits for it (kafkajs default 5 s).
    maxWaitTimeMs: 1000,
    ...(sessionTimeoutMs ? { sessionTimeoutMs } : {}),
    onHandlerError: handlerFailed(log),
    onUnreadable: (error, at) => log.error({ at }, error.message),
    onConnectionError: (error) =>
      log.warn({ err: (error as Error).message }, 'order event consumer cannot join'),
  });
}

export function handlerFailed(log: KafkaLog) {
  return (error: unknown, envelope: OrderEventEnvelope) =>
    log.warn(
      { err: (error as Error)?.message, eventId: envelope.eventId },
      'order event handler failed; retrying',
    );
}
