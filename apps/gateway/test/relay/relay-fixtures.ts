import { parseOrderStreamId } from '@gateway/domain';
import type { EventStore } from '@gateway/event-store';
import { ORDER_EVENT_SPEC_VERSION } from '@gateway/order-events';
import { randomUUID } from 'node:crypto';
import type { ToPublicEvents } from '../../src/relay/order-event.relay';

/** What the relay specs share: order-like events, a stand-in for forBus, waiting. */
export const silent = { info: () => undefined, warn: () => undefined };

/**
 * These tests are about batches, checkpoints and retries, on events that are not real order
 * events: a stand-in for PublicOrderEvents.forBus (test/order-events covers that).
 */
export const toPublic: ToPublicEvents = async (batch) =>
  batch.map((e) => ({
    specVersion: ORDER_EVENT_SPEC_VERSION,
    eventId: e.eventId,
    type: 'OrderCreated',
    ...parseOrderStreamId(e.streamId)!,
    revision: e.revision,
    position: e.position.toString(),
    recordedAt: e.recordedAt,
    order: e.data as Record<string, unknown>,
  }));
export const retry = { initialMs: 2, maxMs: 10 };

/** `rounds` events on each of orders o0…o{orders-1}, one round after another. */
export async function appendOrders(store: EventStore, orders: number, rounds: number) {
  for (let r = 0; r < rounds; r++)
    await Promise.all(
      Array.from({ length: orders }, (_, o) =>
        store.appendToStream(
          `order:TESTM:o${o}`,
          [{ eventId: randomUUID(), type: 'Test', data: { o, r }, metadata: {} }],
          'any',
        ),
      ),
    );
}

export async function until(condition: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
