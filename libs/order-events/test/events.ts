import { ORDER_EVENT_SPEC_VERSION, type PublicOrderEvent } from '../src';

/** A public event of order `orderId` at `revision`; `overrides` for what a test cares about. */
export function testEvent(
  orderId: string,
  revision: number,
  overrides: Partial<PublicOrderEvent> = {},
): PublicOrderEvent {
  return {
    specVersion: ORDER_EVENT_SPEC_VERSION,
    eventId: `${orderId}-${revision}`,
    type: revision === 0 ? 'OrderCreated' : 'AuthorizationProcessed',
    merchantId: 'TESTM',
    orderId,
    revision,
    position: String(revision),
    recordedAt: new Date(0).toISOString(),
    order: { id: orderId, status: 'AUTHORIZED' },
    ...overrides,
  };
}
