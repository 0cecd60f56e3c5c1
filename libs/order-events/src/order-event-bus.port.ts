import type { OrderEventEnvelope } from './order-event.envelope';

/**
 * The bus between the relay and the consumers (webhook dispatcher). Adapters: Kafka (kafkajs) and
 * an in-process bus for the embedded default. Both keep one order's envelopes in order.
 */
export interface OrderEventPublisher {
  /**
   * Resolves once the bus has acknowledged every envelope, in order per order. The relay moves
   * its checkpoint only after this resolves; a rejection means "retry from the checkpoint".
   */
  publish(envelopes: readonly OrderEventEnvelope[]): Promise<void>;
  close(): Promise<void>;
}

/** Handles one envelope; the consumer acknowledges it (commits the offset) once this resolves. */
export type OrderEventHandler = (envelope: OrderEventEnvelope) => Promise<void>;

export interface OrderEventConsumer {
  /**
   * Starts delivering envelopes to `handle`, per order in order, each acknowledged once `handle`
   * resolves. A rejected `handle` is retried (the envelope is not skipped). Resolves once started:
   * a remote bus may still be connecting, and never holds up its caller's start-up for that.
   */
  start(handle: OrderEventHandler): Promise<void>;
  close(): Promise<void>;
}
