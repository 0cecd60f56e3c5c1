import type { OrderEventEnvelope } from '../src';

/** An envelope of order `orderId` at `revision`; `overrides` for what a test cares about. */
export function testEnvelope(
  orderId: string,
  revision: number,
  overrides: Partial<OrderEventEnvelope> = {},
): OrderEventEnvelope {
  const merchantId = overrides.merchantId ?? 'TESTM';
  return {
    specVersion: 1,
    eventId: `${orderId}-${revision}`,
    type: 'Test',
    merchantId,
    orderId,
    streamId: `order:${merchantId}:${orderId}`,
    revision,
    position: String(revision),
    recordedAt: new Date(0).toISOString(),
    data: {},
    metadata: {},
    ...overrides,
  };
}
