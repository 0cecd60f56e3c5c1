import { parseOrderStreamId } from '@gateway/domain';
import type { EventMetadata, StoredEvent } from '@gateway/event-store';

/**
 * What leaves the gateway for every committed order event: on the Kafka topic, to the webhook
 * dispatcher and on the live feed. Versioned so consumers can tell shapes apart; documented in
 * docs/order-events.md.
 *
 * Delivery is at least once: a consumer de-duplicates by `eventId`.
 * `data` is the domain event as stored, so it holds masked card numbers only.
 */
export interface OrderEventEnvelope {
  readonly specVersion: typeof ORDER_EVENT_SPEC_VERSION;
  /** Unique per event; the same on every redelivery. De-duplicate on it. */
  readonly eventId: string;
  readonly type: string;
  readonly merchantId: string;
  readonly orderId: string;
  readonly streamId: string;
  /** 0-based index of the event within its order's stream: per order, strictly increasing. */
  readonly revision: number;
  /** Store-wide commit position as a decimal string (KurrentDB positions exceed 2^53). */
  readonly position: string;
  readonly recordedAt: string;
  readonly data: unknown;
  /** Who caused it (causedBy), apiOperation, apiVersion, correlationId, time. */
  readonly metadata: EventMetadata;
}

export const ORDER_EVENT_SPEC_VERSION = 1;

/** The relay subscribes to order streams only, so every event it sees names merchant and order. */
export function toEnvelope(event: StoredEvent): OrderEventEnvelope {
  const ids = parseOrderStreamId(event.streamId);
  if (!ids) throw new Error(`'${event.streamId}' is not an order stream`);
  return {
    specVersion: ORDER_EVENT_SPEC_VERSION,
    eventId: event.eventId,
    type: event.type,
    merchantId: ids.merchantId,
    orderId: ids.orderId,
    streamId: event.streamId,
    revision: event.revision,
    position: event.position.toString(),
    recordedAt: event.recordedAt,
    data: event.data,
    metadata: event.metadata,
  };
}
