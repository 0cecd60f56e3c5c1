import { ORDER_STREAM_PREFIX } from '@gateway/domain';
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

/** Merchant ids cannot contain ':', so the first ':' after the prefix ends the merchant id. */
export function parseOrderStreamId(streamId: string): { merchantId: string; orderId: string } {
  if (!streamId.startsWith(ORDER_STREAM_PREFIX)) {
    throw new Error(`'${streamId}' is not an order stream`);
  }
  const rest = streamId.slice(ORDER_STREAM_PREFIX.length);
  const colon = rest.indexOf(':');
  if (colon <= 0) throw new Error(`'${streamId}' is not an order stream`);
  return { merchantId: rest.slice(0, colon), orderId: rest.slice(colon + 1) };
}

export function toEnvelope(event: StoredEvent): OrderEventEnvelope {
  return {
    specVersion: ORDER_EVENT_SPEC_VERSION,
    eventId: event.eventId,
    type: event.type,
    ...parseOrderStreamId(event.streamId),
    streamId: event.streamId,
    revision: event.revision,
    position: event.position.toString(),
    recordedAt: event.recordedAt,
    data: event.data,
    metadata: event.metadata,
  };
}
