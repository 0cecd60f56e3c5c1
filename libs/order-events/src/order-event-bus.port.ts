import type { PublicOrderEvent } from './public-order-event';

/**
 * The bus between the relay and the consumers (webhook dispatcher). Adapters: Kafka (kafkajs) and
 * an in-process bus for the embedded default. Both keep one order's events in order.
 */
export interface OrderEventPublisher {
  /**
   * Resolves once the bus has acknowledged every event, in order per order. The relay moves
   * its checkpoint only after this resolves; a rejection means "retry from the checkpoint".
   */
  publish(events: readonly PublicOrderEvent[]): Promise<void>;
  close(): Promise<void>;
}

/** Where a consumed event came from: its Kafka partition (the in-process bus gives no source). */
export interface OrderEventSource {
  readonly partition: number;
}

/** Handles one event; the consumer acknowledges it (commits the offset) once this resolves. */
export type OrderEventHandler = (
  event: PublicOrderEvent,
  source?: OrderEventSource,
) => Promise<void>;

export interface OrderEventConsumer {
  /**
   * Starts delivering events to `handle`, per order in order, each acknowledged once `handle`
   * resolves. A rejected `handle` is retried (the event is not skipped). Resolves once started:
   * a remote bus may still be connecting, and never holds up its caller's start-up for that.
   */
  start(handle: OrderEventHandler): Promise<void>;
  close(): Promise<void>;
}
