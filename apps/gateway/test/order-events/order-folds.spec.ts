import {
  evolve,
  initialState,
  rememberStateAfter,
  type OrderEvent,
  type OrderState,
} from '@gateway/domain';
import { InMemoryEventStore, type StoredEvent } from '@gateway/event-store';
import { randomUUID } from 'node:crypto';
import {
  authorized,
  captured,
  created,
  refunded,
} from '../../../../libs/domain/test/order.fixtures';
import { OrderFolds } from '../../src/order-events/order-folds';

/** Authorize 100.00, then capture 1.00 each time: every event moves the totals. */
const history = (captures: number): OrderEvent[] => [
  created(),
  authorized('auth', 100_000),
  ...Array.from({ length: captures }, (_, i) => captured(`cap-${i}`, 1_000)),
];

async function storeOrders(orders: number, events: OrderEvent[]) {
  const store = new InMemoryEventStore();
  for (let o = 0; o < orders; o++)
    await store.appendToStream(
      `order:TESTM:o-${o}`,
      events.map((e) => ({ eventId: randomUUID(), type: e.type, data: e.data, metadata: {} })),
      'no_stream',
    );
  const reads: string[] = [];
  const counted = {
    readStream: (streamId: string) => {
      reads.push(streamId);
      return store.readStream(streamId);
    },
  };
  return { store, reads, folds: new OrderFolds(counted) };
}

/** The state after `event`, folded from scratch. */
function expected(all: readonly StoredEvent[], event: StoredEvent): OrderState {
  return all
    .filter((e) => e.streamId === event.streamId && e.revision <= event.revision)
    .reduce((s, e) => evolve(s, e as unknown as OrderEvent), initialState());
}

const summary = (state: OrderState) =>
  state.kind === 'Order'
    ? [state.orderId, state.status, state.totals, state.transactions.map((t) => t.id)]
    : state;

describe('OrderFolds: the order as each event left it', () => {
  it('follows orders in commit order with one evolve per event, reading no stream', async () => {
    const { store, reads, folds } = await storeOrders(3, history(4));
    const all = await store.readAll({ maxCount: 1000 });
    for (const event of all)
      expect(summary(await folds.after(event))).toEqual(summary(expected(all, event)));
    expect(reads).toEqual([]);
  });

  it('serves consumers at different places: a redelivery, one far behind, one joining mid-order', async () => {
    const { store, reads, folds } = await storeOrders(1, history(20));
    const all = await store.readAll({ maxCount: 1000 });
    for (const event of all.slice(0, 18)) await folds.after(event);
    // A few events back (kept), far back (read back by another consumer: other objects, read and
    // folded again), and on from where it was.
    const readBack = (event: StoredEvent) => ({ ...event });
    for (const event of [
      all[15],
      all[16],
      readBack(all[3]),
      all[18],
      all[19],
      readBack(all[2]),
      all[21],
    ])
      expect(summary(await folds.after(event))).toEqual(summary(expected(all, event)));
    expect(reads).toEqual(['order:TESTM:o-0', 'order:TESTM:o-0', 'order:TESTM:o-0']);

    const joining = new OrderFolds(store);
    expect(summary(await joining.after(all[10]))).toEqual(summary(expected(all, all[10])));
  });

  it('forgets the orders least recently asked about, and folds them again from the store', async () => {
    const { store, reads, folds } = await storeOrders(1_001, [
      created(),
      authorized('auth', 100_000),
      refunded('r', 0, 'auth'),
    ]);
    const all = await store.readAll({ maxCount: 10_000 });
    const firsts = all.filter((e) => e.revision === 1);
    for (const event of firsts) await folds.after(event);
    const reading = reads.length;
    expect(reading).toBe(1_001); // each order joined at revision 1
    const seconds = all.filter((e) => e.revision === 2);
    expect(summary(await folds.after(seconds[0]))).toEqual(summary(expected(all, seconds[0])));
    expect(reads.length).toBe(reading + 1); // o-0 was forgotten
    await folds.after(seconds[1_000]);
    expect(reads.length).toBe(reading + 1); // o-1000 was kept
  });

  it("takes the write path's fold of a committed event instead of reading and folding", async () => {
    const { store, reads, folds } = await storeOrders(1, history(2));
    const all = await store.readAll({ maxCount: 10 });
    const folded = expected(all, all[3]);
    rememberStateAfter(all[3], folded);
    expect(await folds.after(all[3])).toBe(folded);
    expect(reads).toEqual([]); // joined at revision 3 without reading the stream
    expect(summary(await folds.after(all[2]))).toEqual(summary(expected(all, all[2]))); // read
    expect(reads).toEqual(['order:TESTM:o-0']);
  });

  it('leaves its folds to the other consumers handed the same event objects', async () => {
    const { store, reads, folds } = await storeOrders(1, history(5));
    const all = await store.readAll({ maxCount: 1000 });
    for (const event of all) await folds.after(event);
    const other = new OrderFolds({ readStream: () => Promise.reject(new Error('read')) });
    // Far into the order at once: no stream read, the state the first one folded.
    expect(summary(await other.after(all[5]))).toEqual(summary(expected(all, all[5])));
    expect(reads).toEqual([]);
  });

  it('refuses a stream that reads back without the event', async () => {
    const { store } = await storeOrders(1, history(2));
    const [event] = (await store.readAll({ maxCount: 10 })).slice(2);
    const folds = new OrderFolds({ readStream: async () => [] });
    await expect(folds.after(event)).rejects.toThrow(/read back without event/);
  });
});
