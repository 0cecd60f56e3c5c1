import type { IHeaders, KafkaMessage, Message } from 'kafkajs';
import { ORDER_EVENT_SPEC_VERSION, type OrderEventEnvelope } from '../order-event.envelope';

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
export function orderEventKey(envelope: Pick<OrderEventEnvelope, 'merchantId' | 'orderId'>) {
  return `${envelope.merchantId}:${envelope.orderId}`;
}

export function toKafkaMessage(envelope: OrderEventEnvelope): Message {
  return {
    key: orderEventKey(envelope),
    value: JSON.stringify(envelope),
    headers: {
      [ORDER_EVENT_HEADERS.eventId]: envelope.eventId,
      [ORDER_EVENT_HEADERS.type]: envelope.type,
      [ORDER_EVENT_HEADERS.revision]: String(envelope.revision),
      [ORDER_EVENT_HEADERS.position]: envelope.position,
      [ORDER_EVENT_HEADERS.merchantId]: envelope.merchantId,
      [ORDER_EVENT_HEADERS.specVersion]: String(envelope.specVersion),
    },
  };
}

export class UnreadableOrderEventError extends Error {
  constructor(reason: string) {
    super(`Not an order event envelope: ${reason}`);
    this.name = 'UnreadableOrderEventError';
  }
}

/** The envelope of a record; throws UnreadableOrderEventError for anything else. */
export function fromKafkaMessage(message: Pick<KafkaMessage, 'value' | 'headers'>) {
  const version = header(message.headers, ORDER_EVENT_HEADERS.specVersion);
  if (version !== String(ORDER_EVENT_SPEC_VERSION))
    throw new UnreadableOrderEventError(`spec version '${version}'`);
  let envelope: Partial<OrderEventEnvelope>;
  try {
    envelope = JSON.parse(message.value?.toString('utf8') ?? '');
  } catch {
    throw new UnreadableOrderEventError('the value is not JSON');
  }
  const text = (value: unknown) => typeof value === 'string' && value.length > 0;
  if (
    envelope?.specVersion !== ORDER_EVENT_SPEC_VERSION ||
    !text(envelope.eventId) ||
    !text(envelope.streamId) ||
    !text(envelope.position) ||
    !Number.isInteger(envelope.revision)
  )
    throw new UnreadableOrderEventError('fields missing');
  return envelope as OrderEventEnvelope;
}

function header(headers: IHeaders | undefined, name: string): string | undefined {
  const value = headers?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first?.toString();
}
