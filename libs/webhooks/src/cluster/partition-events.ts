import { randomUUID } from 'node:crypto';
import type { NewEvent } from '@gateway/event-store';
import type {
  AttemptConsequence,
  DeliveryAttempt,
  DueDelivery,
  NewDelivery,
} from '../delivery/delivery.types';
import type { SqliteDeliveryStore } from '../delivery/sqlite-delivery.store';

/**
 * The durable schedule of one Kafka partition's webhook deliveries: a stream in the event store
 * (docs/webhooks.md, "Several dispatchers"). Every change to a delivery is an event carrying the
 * arguments of the SQLite store's write, so folding the stream into a SQLite file (the owner's
 * schedule, a gateway's read model) replays exactly what one store would have done.
 */
export const DELIVERY_STREAM_PREFIX = 'webhook-deliveries-';

export function partitionStreamId(topic: string, partition: number): string {
  return `${DELIVERY_STREAM_PREFIX}${topic}-${partition}`;
}

export interface PartitionEventData {
  DeliveryRecorded: { delivery: NewDelivery; now: number };
  AttemptCompleted: {
    delivery: Pick<DueDelivery, 'id' | 'streamId'>;
    attempt: DeliveryAttempt;
    consequence: AttemptConsequence;
    now: number;
  };
  /** Appended by the delivery API or the CLI on any node, the owner picks it up. */
  RedeliveryRequested: { id: string; now: number };
  /** A dispatcher took the partition: an owner seeing another's claim has lost it. */
  PartitionClaimed: { owner: string };
  /** The owner gave the partition up with no attempt in flight: a claimant need not wait. */
  PartitionReleased: { owner: string };
}

export type PartitionEventType = keyof PartitionEventData;

export function partitionEvent<K extends PartitionEventType>(
  type: K,
  data: PartitionEventData[K],
): NewEvent {
  return { eventId: randomUUID(), type, data, metadata: {} };
}

/**
 * Applies a delivery event to a SQLite delivery store (ownership events change nothing there).
 * Writes are queued in call order, so events applied one after another without waiting land in
 * order; the promise settles when this one is committed.
 */
export function applyToStore(
  store: SqliteDeliveryStore,
  event: { readonly type: string; readonly data: unknown },
): Promise<unknown> | undefined {
  switch (event.type as PartitionEventType) {
    case 'DeliveryRecorded': {
      const { delivery, now } = event.data as PartitionEventData['DeliveryRecorded'];
      return store.record(delivery, now);
    }
    case 'AttemptCompleted': {
      const { delivery, attempt, consequence, now } =
        event.data as PartitionEventData['AttemptCompleted'];
      return store.completeAttempt(delivery, attempt, consequence, now);
    }
    case 'RedeliveryRequested': {
      const { id, now } = event.data as PartitionEventData['RedeliveryRequested'];
      return store.redeliver(id, now);
    }
    default:
      return undefined;
  }
}
