import type { OrderEventType } from '@gateway/domain';

type Json = Readonly<Record<string, unknown>>;

/**
 * What leaves the gateway for every committed order event: on the Kafka topic, to the webhook
 * dispatcher and on the live feed. Built from the stored event and the order it left
 * (libs/order-view, public-order-event.ts), never the stored event itself: names and decimal
 * amounts of the API, cards masked as a GET shows them, nothing of what the gateway keeps for
 * itself (fingerprints, request hashes, sealed bank data, processor records). Described by the
 * AsyncAPI document at /api/asyncapi.json and in docs/order-events.md.
 *
 * Delivery is at least once: a consumer de-duplicates by `eventId`.
 */
export interface PublicOrderEvent {
  readonly specVersion: typeof ORDER_EVENT_SPEC_VERSION;
  /** Unique per event; the same on every redelivery. De-duplicate on it. */
  readonly eventId: string;
  readonly type: OrderEventType;
  readonly merchantId: string;
  readonly orderId: string;
  /** The order's sequence number: 0-based, per order strictly increasing. */
  readonly revision: number;
  /** Store-wide commit position as a decimal string (KurrentDB positions exceed 2^53). */
  readonly position: string;
  readonly recordedAt: string;
  /** The order's status and totals right after the event. */
  readonly order: Json;
  /** The transaction the event recorded or changed, as Retrieve Transaction shows it. */
  readonly transaction?: Json;
  /** TransactionsSettled: each transaction settled, as Retrieve Transaction shows it. */
  readonly settledTransactions?: readonly Json[];
}

/** 1 carried the stored event; 2 is the public event. */
export const ORDER_EVENT_SPEC_VERSION = 2;

/** One order's events share this key (Kafka key, per-order ordering on every bus). */
export function orderEventKey(event: Pick<PublicOrderEvent, 'merchantId' | 'orderId'>): string {
  return `${event.merchantId}:${event.orderId}`;
}
