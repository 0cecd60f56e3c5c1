import { orderStreamId } from '@gateway/domain';
import type { DeliveryReader, NewDelivery, PartitionEventData, PartitionEventType } from '../src';

/**
 * A delivery store as its writer keeps it and as a reader beside it sees it: the SQLite file
 * (SqliteDeliveryStore.openReadOnly) or the event store's partition schedules
 * (EventStoreDeliveryReader). The writes are the dispatcher's, as partition events.
 */
export interface DeliveryReaderUnderTest {
  /** Writes as the dispatcher does (to the partition's schedule, for the event store). */
  write<K extends PartitionEventType>(
    type: K,
    data: PartitionEventData[K],
    partition: number,
  ): Promise<void>;
  /** A reader beside the writer, showing what was written so far. */
  open(): Promise<DeliveryReader>;
  /** Resolves once `reader` shows what was written before the call. */
  seen(reader: DeliveryReader): Promise<void>;
  cleanup(): Promise<void>;
}

/** The notification of an order's event `revision`, event id event-<n>. */
export const delivery = (
  n: number,
  merchantId: string,
  order: string,
  revision = 0,
): NewDelivery => ({
  id: `event-${n}`,
  merchantId,
  orderId: order,
  streamId: orderStreamId(merchantId, order),
  revision,
  eventType: 'AuthorizationProcessed',
  transactionId: `t${n}`,
  url: `https://${merchantId.toLowerCase()}.example/hooks`,
  body: '{}',
  committedAt: new Date(1_000 + n).toISOString(),
});

const attempt = (n: number, statusCode: number | undefined, latencyMs: number) => ({
  attempt: n,
  startedAt: new Date(2_000 + n).toISOString(),
  latencyMs,
  ...(statusCode !== undefined ? { statusCode } : {}),
  outcome: statusCode === 200 ? ('DELIVERED' as const) : ('FAILED' as const),
  ...(statusCode === 200 ? {} : { error: statusCode ? `HTTP ${statusCode}` : 'timed out' }),
});

/** The Webhooks page's reads (list, filters, pages, attempts, an order's) over every store. */
export function describeDeliveryReaderContract(
  name: string,
  factory: () => Promise<DeliveryReaderUnderTest>,
): void {
  describe(`delivery reader contract: ${name}`, () => {
    let store: DeliveryReaderUnderTest;
    let reader: DeliveryReader;
    const d1 = delivery(1, 'SHOPA', 'o1');
    const d2 = delivery(2, 'SHOPA', 'o1', 1);
    const d3 = delivery(3, 'SHOPB', 'o2');
    const d4 = delivery(4, 'SHOPA', 'o3');

    beforeAll(async () => {
      store = await factory();
      const record = (d: NewDelivery, partition: number) =>
        store.write('DeliveryRecorded', { delivery: d, now: 5_000 }, partition);
      const complete = (
        d: NewDelivery,
        partition: number,
        tried: ReturnType<typeof attempt>,
        consequence: PartitionEventData['AttemptCompleted']['consequence'],
      ) =>
        store.write(
          'AttemptCompleted',
          { delivery: d, attempt: tried, consequence, now: 6_000 },
          partition,
        );
      await record(d1, 0);
      await record(d2, 0);
      await record(d3, 1);
      await record(d4, 1);
      await complete(d1, 0, attempt(1, 500, 12.5), { status: 'PENDING', nextAttemptAt: 9_000 });
      await complete(d1, 0, attempt(2, 200, 30), { status: 'DELIVERED' });
      await complete(d2, 0, attempt(1, 503, 7), { status: 'DEAD_LETTERED' });
      await complete(d4, 1, attempt(1, undefined, 15_000), { status: 'DEAD_LETTERED' });
      reader = await store.open();
    });

    afterAll(async () => {
      await reader?.close();
      await store?.cleanup();
    });

    const ids = (page: { deliveries: readonly { id: string }[] }) =>
      page.deliveries.map((d) => d.id);

    it('lists every delivery newest first, with its state and last status code', () => {
      const page = reader.list({ limit: 10 });
      expect(ids(page)).toEqual(['event-4', 'event-3', 'event-2', 'event-1']);
      expect(page.next).toBeUndefined();
      expect(page.deliveries.map((d) => [d.status, d.attempts, d.lastStatusCode])).toEqual([
        ['DEAD_LETTERED', 1, undefined],
        ['PENDING', 0, undefined],
        ['DEAD_LETTERED', 1, 503],
        ['DELIVERED', 2, 200],
      ]);
    });

    it('filters by merchant and state', () => {
      expect(ids(reader.list({ merchantId: 'SHOPA', status: 'DEAD_LETTERED', limit: 10 }))).toEqual(
        ['event-4', 'event-2'],
      );
      expect(ids(reader.list({ merchantId: 'SHOPB', limit: 10 }))).toEqual(['event-3']);
      expect(ids(reader.list({ status: 'DELIVERED', limit: 10 }))).toEqual(['event-1']);
    });

    it('pages with the keyset cursor it hands out', () => {
      const first = reader.list({ limit: 3 });
      expect(ids(first)).toEqual(['event-4', 'event-3', 'event-2']);
      const second = reader.list({ limit: 3, before: first.next });
      expect(ids(second)).toEqual(['event-1']);
      expect(second.next).toBeUndefined();
    });

    it('shows a delivery with every attempt: outcome, status code, latency, error', () => {
      expect(reader.get('event-1')).toMatchObject({
        status: 'DELIVERED',
        attempts: 2,
        lastStatusCode: 200,
        attemptLog: [
          { attempt: 1, statusCode: 500, latencyMs: 12.5, outcome: 'FAILED', error: 'HTTP 500' },
          { attempt: 2, statusCode: 200, latencyMs: 30, outcome: 'DELIVERED' },
        ],
      });
      expect(reader.get('event-4')?.attemptLog).toEqual([attempt(1, undefined, 15_000)]);
      expect(reader.get('event-1', 'SHOPA')?.id).toBe('event-1');
      expect(reader.get('event-1', 'SHOPB')).toBeUndefined(); // another merchant's
      expect(reader.get('event-9')).toBeUndefined();
    });

    it("lists an order's deliveries in the order of its events", () => {
      expect(reader.ofOrder(d1.streamId).map((d) => d.id)).toEqual(['event-1', 'event-2']);
      expect(reader.ofOrder(orderStreamId('SHOPA', 'none'))).toEqual([]);
    });

    it("sees the writer's later changes: a redelivery, a new delivery", async () => {
      await store.write('RedeliveryRequested', { id: 'event-2', now: 10_000 }, 0);
      await store.write('DeliveryRecorded', { delivery: delivery(5, 'SHOPB', 'o4'), now: 7 }, 1);
      await store.seen(reader);
      expect(reader.get('event-2')).toMatchObject({ status: 'PENDING', attempts: 1 });
      expect(ids(reader.list({ limit: 1 }))).toEqual(['event-5']);
    });
  });
}
