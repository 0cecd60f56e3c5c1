import type { PublicOrderEvent } from '@gateway/order-events';
import { isOrderEventType, ORDER_EVENT_TYPES } from '@gateway/order-view';

/** Spec: the URL must be https and longer than 11 characters. */
export function isNotificationUrl(url: unknown): url is string {
  if (typeof url !== 'string' || url.length <= 11) return false;
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}

export interface Notification {
  readonly url: string;
  readonly transactionId: string;
  /** The Retrieve Transaction response, as sent (and signed) on every attempt. */
  readonly body: string;
}

/**
 * The notification an order event calls for, if any: an event that records a transaction or a
 * later step of one (ORDER_EVENT_TYPES), on an order with a notification URL. The body is the
 * event's `transaction`, serialised as in the event: the Retrieve Transaction response of that
 * transaction as the event left the order, in the API version of the request that made it, as a
 * GET under Basic authentication shows it. The dispatcher renders nothing itself.
 */
export function notificationFor(event: PublicOrderEvent): Notification | undefined {
  const url = event.order.notificationUrl;
  if (!isOrderEventType(event.type) || !ORDER_EVENT_TYPES[event.type].notifies) return undefined;
  if (!event.transaction || !isNotificationUrl(url)) return undefined;
  const transactionId = (event.transaction.transaction as { id?: unknown } | undefined)?.id;
  if (typeof transactionId !== 'string') return undefined;
  return { url, transactionId, body: JSON.stringify(event.transaction) };
}
