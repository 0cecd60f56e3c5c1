import type { IHeaders, KafkaMessage, Message } from 'kafkajs';
import {
  ORDER_EVENT_SPEC_VERSION,
  orderEventKey,
  type PublicOrderEvent,
} from '../public-order-event';

/** Kafka headers of every order event record (docs/order-events.md). */
export const ORDER_EVENT_HEADERS = {
  eventId: 'event-id',
  type: 'event-type',
  revision: 'stream-revision',
  position: 'global-position',
  merchantId: 'merchant-id',
  specVersion: 'spec-version',
} as const;

/** Keyed by merchant and order, so one order's records share a partition and stay in order. */
export function toKafkaMessage(event: PublicOrderEvent): Message {
  return {
    key: orderEventKey(event),
    value: JSON.stringify(event),
    headers: {
      [ORDER_EVENT_HEADERS.eventId]: event.eventId,
      [ORDER_EVENT_HEADERS.type]: event.type,
      [ORDER_EVENT_HEADERS.revision]: String(event.revision),
      [ORDER_EVENT_HEADERS.position]: event.position,
      [ORDER_EVENT_HEADERS.merchantId]: event.merchantId,
      [ORDER_EVENT_HEADERS.specVersion]: String(event.specVersion),
    },
  };
}

export class UnreadableOrderEventError extends Error {
  constructor(reason: string) {
    super(`Not a public order event: ${reason}`);
    this.name = 'UnreadableOrderEventError';
  }
}

/**
 * The public order event of a record; throws UnreadableOrderEventError for anything else,
 * records of another spec version included (version 1 carried the stored event).
 */
export function fromKafkaMessage(message: Pick<KafkaMessage, 'value' | 'headers'>) {
  const version = header(message.headers, ORDER_EVENT_HEADERS.specVersion);
  if (version !== String(ORDER_EVENT_SPEC_VERSION))
    throw new UnreadableOrderEventError(`spec version '${version}'`);
  let event: Partial<PublicOrderEvent>;
  try {
    event = JSON.parse(message.value?.toString('utf8') ?? '');
  } catch {
    throw new UnreadableOrderEventError('the value is not JSON');
  }
  const text = (value: unknown) => typeof value === 'string' && value.length > 0;
  if (
    event?.specVersion !== ORDER_EVENT_SPEC_VERSION ||
    !text(event.eventId) ||
    !text(event.merchantId) ||
    !text(event.orderId) ||
    !text(event.position) ||
    !Number.isInteger(event.revision) ||
    typeof event.order !== 'object' ||
    event.order === null
  )
    throw new UnreadableOrderEventError('fields missing');
  return event as PublicOrderEvent;
}

function header(headers: IHeaders | undefined, name: string): string | undefined {
  const value = headers?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first?.toString();
}
