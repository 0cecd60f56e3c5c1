export const DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'DEAD_LETTERED'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** A notification to send, as the consumer records it. */
export interface NewDelivery {
  /** The X-Notification-Id and webhook-id: the order event's id, stable across attempts. */
  readonly id: string;
  readonly merchantId: string;
  readonly orderId: string;
  readonly streamId: string;
  /** The event's revision in the order's stream: notifications of an order go out in this order. */
  readonly revision: number;
  readonly eventType: string;
  readonly transactionId: string;
  readonly url: string;
  readonly body: string;
  /** When the event store committed the event (ISO 8601): the start of the delivery lag. */
  readonly committedAt: string;
}

/** A delivery the scheduler may send now. */
export interface DueDelivery extends NewDelivery {
  /** Attempts made so far, in every round. */
  readonly attempts: number;
  /** Failed attempts in the current round (a redelivery starts a new round). */
  readonly roundAttempts: number;
}

export interface DeliveryAttempt {
  /** 1, 2, …: the X-Notification-Attempt sent. */
  readonly attempt: number;
  readonly startedAt: string;
  readonly latencyMs: number;
  readonly statusCode?: number;
  readonly outcome: 'DELIVERED' | 'FAILED';
  readonly error?: string;
}

/** What an attempt leaves the delivery as: done, dead, or pending until a time (epoch ms). */
export type AttemptConsequence =
  | { readonly status: 'DELIVERED' }
  | { readonly status: 'DEAD_LETTERED' }
  | { readonly status: 'PENDING'; readonly nextAttemptAt: number };

/** A delivery as listed to merchants and operators (the body is left out of lists). */
export interface DeliverySummary {
  readonly id: string;
  readonly merchantId: string;
  readonly orderId: string;
  readonly transactionId: string;
  readonly eventType: string;
  readonly url: string;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  readonly createdAt: string;
  readonly nextAttemptAt?: string;
  readonly deliveredAt?: string;
  readonly lastStatusCode?: number;
  readonly lastError?: string;
}

export interface DeliveryQuery {
  readonly merchantId?: string;
  readonly status?: DeliveryStatus;
  readonly limit: number;
  /** Page cursor: deliveries recorded before this one (the previous page's `next`). */
  readonly before?: number;
}

export interface DeliveryPage {
  readonly deliveries: readonly DeliverySummary[];
  /** Pass as `before` for the next page; absent on the last. */
  readonly next?: number;
}

/** A delivery with every attempt made, as shown by the delivery API and the CLI. */
export type DeliveryDetail = DeliverySummary & { readonly attemptLog: DeliveryAttempt[] };

/**
 * What the dispatcher needs of a delivery store: record notifications, find what is due, log
 * attempts. The SQLite store is one; cluster/ keeps one per Kafka partition in the event store.
 */
export interface DeliveryQueue {
  /**
   * Records a delivery; false when one for this event exists already. `partition` is the Kafka
   * partition the event came from (a store scheduling per partition needs it).
   */
  record(delivery: NewDelivery, now: number, partition?: number): Promise<boolean>;
  /** Merchants with a delivery due at `now`. */
  merchantsDue(now: number): string[];
  /** Up to `limit` due deliveries of a merchant, each its order's oldest pending, not of `excluding` orders. */
  due(merchantId: string, now: number, limit: number, excluding?: Iterable<string>): DueDelivery[];
  /** When the next delivery falls due (epoch ms), if any is pending. */
  nextDueAt(): number | undefined;
  completeAttempt(
    delivery: DueDelivery,
    attempt: DeliveryAttempt,
    consequence: AttemptConsequence,
    now: number,
  ): Promise<void>;
  pendingCount(): number;
  /** An attempt at a delivery `due` returned started, and ended (logged or cut short). */
  attemptStarted?(delivery: DueDelivery): void;
  attemptEnded?(delivery: DueDelivery): void;
}

/** The log alone, read-only (the console, beside the process that writes it). */
export type DeliveryReader = Pick<DeliveryLog, 'list' | 'get' | 'close'> & {
  /** An order's deliveries (by its stream id), in the order of its events. */
  ofOrder(streamId: string): DeliverySummary[];
};

/** What the delivery API and the CLI need: the log, and redelivery. */
export interface DeliveryLog {
  list(query: DeliveryQuery): DeliveryPage;
  get(id: string, merchantId?: string): DeliveryDetail | undefined;
  redeliver(id: string, now: number, merchantId?: string): Promise<DeliverySummary | undefined>;
  redeliverDeadLettered(merchantId: string, now: number): Promise<number>;
  close(): Promise<void>;
}
