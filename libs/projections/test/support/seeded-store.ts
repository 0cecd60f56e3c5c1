import { orderStreamId } from '@gateway/domain';
import type { EventStore } from '@gateway/event-store';
import { randomUUID } from 'node:crypto';
import type { SeedAppend } from '../../../../scripts/seed/order-scenarios';

/** Appends one order's seeded transactions to the store, as the gateway would. */
export async function appendOrder(
  store: EventStore,
  merchantId: string,
  orderId: string,
  appends: readonly SeedAppend[],
): Promise<void> {
  let expected: 'no_stream' | number = 'no_stream';
  for (const { events, metadata } of appends) {
    const result = await store.appendToStream(
      orderStreamId(merchantId, orderId),
      events.map((e) => ({ eventId: randomUUID(), type: e.type, data: e.data, metadata })),
      expected,
    );
    expected = result.nextExpectedRevision;
  }
}
