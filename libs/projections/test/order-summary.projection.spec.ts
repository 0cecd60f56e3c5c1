import { foldOrder, orderStreamId, stateAfter, type OrderEvent } from '@gateway/domain';
import { InMemoryEventStore, type StoredEvent } from '@gateway/event-store';
import {
  OrderSummaryProjection,
  summaryOf,
  diffOrderSummaries,
  type OrderSummary,
} from '@gateway/projections';
import { randomSource, seedOrder } from '../../../scripts/seed/order-scenarios';
import {
  authorize,
  capture,
  refund,
  voidTx,
  pay,
  declined,
} from '../../domain/test/order.fixtures';
import {
  decide,
  decideAcquirerFact,
  evolve,
  initialState,
  rememberStateAfter,
  type DeciderCommand,
} from '@gateway/domain';
import { appendOrder } from './support/seeded-store';
import { chargedBack, inquiry } from '../../domain/test/acquirer-facts.fixtures';

/** Stored events of order o-1 of TESTM (the fixtures' ids), decided one command after another. */
function storedEvents(commands: readonly DeciderCommand[]): StoredEvent[] {
  let state = initialState();
  const events: OrderEvent[] = [];
  for (const command of commands) {
    const decided = decide(command, state);
    state = decided.reduce(evolve, state);
    events.push(...decided);
  }
  return events.map((e, i) => ({
    ...e,
    eventId: `e${i}`,
    metadata: {},
    streamId: orderStreamId('TESTM', 'o-1'),
    revision: i,
    position: BigInt(i + 1),
    recordedAt: '2026-11-22T10:00:00.000Z',
  }));
}

describe('order summary projection: events → row', () => {
  it('authorized, captured, then partly refunded', () => {
    const row = summaryOf(
      storedEvents([
        authorize({ transactionId: 'a', amount: 100_000, now: '2026-11-22T10:00:00.000Z' }),
        capture({ transactionId: 'c', amount: 60_000, now: '2026-11-22T10:05:00.000Z' }),
        refund({ transactionId: 'r', amount: 10_000, now: '2026-11-22T10:09:00.000Z' }),
      ]),
    );
    expect(row).toEqual<OrderSummary>({
      merchantId: 'TESTM',
      orderId: 'o-1',
      status: 'PARTIALLY_REFUNDED',
      currency: 'USD',
      totalAuthorized: 100_000,
      totalCaptured: 60_000,
      totalRefunded: 10_000,
      totalChargeback: 0,
      unknownTransactions: 0,
      totalUnknown: 0,
      creationTime: '2026-11-22T10:00:00.000Z',
      lastUpdatedTime: '2026-11-22T10:09:00.000Z',
      transactionCount: 3,
      streamRevision: 3, // OrderCreated, then one event per transaction
      amount: 100_000,
      cardLastFour: '0008', // the authorization's card: the capture and refund carry none
    });
  });

  it('a declined authorization is a FAILED order with one transaction and no money', () => {
    expect(
      summaryOf(
        storedEvents([authorize({ transactionId: 'a', amount: 5_000, outcome: declined() })]),
      ),
    ).toMatchObject({
      status: 'FAILED',
      totalAuthorized: 0,
      totalCaptured: 0,
      transactionCount: 1,
    });
  });

  it("order.reference comes from the first transaction, the card's last four from the latest card", () => {
    const otherCard = {
      type: 'CARD',
      provided: { card: { number: '411111xxxxxx1111', expiry: { month: '1', year: '39' } } },
    };
    const first = { echo: { order: { reference: 'basket-17' } } } as any;
    const row = summaryOf(
      storedEvents([
        authorize({ transactionId: 'a', amount: 5_000, outcome: declined(), ...first }),
        authorize({ transactionId: 'b', amount: 5_000, sourceOfFunds: otherCard }),
      ]),
    );
    expect(row).toMatchObject({ reference: 'basket-17', cardLastFour: '1111', amount: 5_000 });
    const plain = summaryOf(storedEvents([pay({ transactionId: 'p', amount: 7_000 })]));
    expect(plain).not.toHaveProperty('reference');
  });

  it('a voided payment is CANCELLED, its totals back to zero', () => {
    expect(
      summaryOf(
        storedEvents([
          pay({ transactionId: 'p', amount: 7_000 }),
          voidTx({ transactionId: 'v', targetTransactionId: 'p' }),
        ]),
      ),
    ).toMatchObject({
      status: 'CANCELLED',
      totalAuthorized: 0,
      totalCaptured: 0,
      transactionCount: 2,
    });
  });

  it('an UNKNOWN authorization counts as UNKNOWN money until its outcome is learnt', () => {
    const unknown = { gatewayCode: 'UNKNOWN' as const, approvedAmount: 5_000, details: {} };
    const events = storedEvents([
      authorize({ transactionId: 't1', amount: 5_000, outcome: unknown }),
    ]);
    expect(summaryOf(events)).toMatchObject({ unknownTransactions: 1, totalUnknown: 5_000 });
    const state = foldOrder(events.map(({ type, data }) => ({ type, data }) as OrderEvent));
    const decision = decideAcquirerFact(inquiry(1, 'APPROVED'), state);
    if (decision.kind !== 'record') throw new Error(decision.kind);
    const learnt = decision.events.map((e, i) => ({ ...events[0], ...e, revision: 2 + i }));
    expect(summaryOf([...events, ...learnt])).toMatchObject({
      status: 'AUTHORIZED',
      totalAuthorized: 5_000,
      unknownTransactions: 0,
      totalUnknown: 0,
    });
  });

  it('a chargeback: CHARGEBACK_PROCESSED with its total', () => {
    const events = storedEvents([pay({ transactionId: 'c1', amount: 7_000 })]);
    const charged = { ...events[0], ...chargedBack(2_000), revision: 2 };
    expect(summaryOf([...events, charged])).toMatchObject({
      status: 'CHARGEBACK_PROCESSED',
      totalCaptured: 7_000,
      totalChargeback: 2_000,
    });
  });

  it('no row before the order exists', () => {
    expect(summaryOf([])).toBeUndefined();
  });
});

describe('OrderSummaryProjection', () => {
  async function seeded(orders: number) {
    const store = new InMemoryEventStore();
    const random = randomSource(7);
    for (let n = 0; n < orders; n++)
      await appendOrder(
        store,
        'M',
        `o${n}`,
        seedOrder(random, 'M', `o${n}`, new Date(Date.UTC(2026, 10, 22, 0, n))),
      );
    return { store, events: await store.readAll({ maxCount: 100_000 }) };
  }

  it('gives every order the row its whole stream folds to, in batches of any size', async () => {
    const { store, events } = await seeded(30);
    const projection = new OrderSummaryProjection(store);
    const rows = new Map<string, OrderSummary>();
    for (let i = 0; i < events.length; i += 7)
      for (const row of await projection.project(events.slice(i, i + 7)))
        rows.set(row.orderId, row);
    expect(rows.size).toBe(30);
    for (let n = 0; n < 30; n++) {
      const stream = await store.readStream(orderStreamId('M', `o${n}`));
      const order = foldOrder(stream as unknown as OrderEvent[]);
      expect(rows.get(`o${n}`)).toEqual(summaryOf(stream));
      expect(rows.get(`o${n}`)?.status).toBe(order.kind === 'Order' && order.status);
    }
  });

  it("takes the write path's fold of a committed event: no stream read, no fold", async () => {
    const { store, events } = await seeded(1);
    const last = events[events.length - 1];
    const folded = foldOrder(events as unknown as OrderEvent[]);
    rememberStateAfter(last, folded);
    // Without the fold it would have to read the order's earlier events.
    const unread = { readStream: () => Promise.reject(new Error('read')) };
    const rows = await new OrderSummaryProjection(unread).project([last]);
    expect(rows).toEqual([summaryOf(await store.readStream(last.streamId))]);
  });

  it('leaves its fold of the last event of each order to the other consumers of that object', async () => {
    const { store, events } = await seeded(3);
    await new OrderSummaryProjection(store).project(events);
    for (let n = 0; n < 3; n++) {
      const stream = events.filter((e) => e.streamId === orderStreamId('M', `o${n}`));
      expect(stateAfter(stream[stream.length - 1])).toEqual(
        foldOrder(stream as unknown as OrderEvent[]),
      );
    }
  });

  it('ignores events it has already applied, so applying twice changes nothing', async () => {
    const { store, events } = await seeded(5);
    const projection = new OrderSummaryProjection(store);
    expect((await projection.project(events)).length).toBe(5);
    expect(await projection.project(events)).toEqual([]);
    expect(await projection.project(events.slice(3, 9))).toEqual([]);
  });

  it('folds an order that fell out of its cache again from the stream, to the same row', async () => {
    const { store, events } = await seeded(12);
    const tiny = new OrderSummaryProjection(store, 1);
    const large = new OrderSummaryProjection(store);
    // Every order's events, each batch holding one event of every order: the 1-entry cache misses.
    const byRevision = [...events].sort((a, b) => a.revision - b.revision);
    const replay = async (projection: OrderSummaryProjection) => {
      const rows = new Map<string, OrderSummary>();
      for (const event of byRevision)
        for (const row of await projection.project([event])) rows.set(row.orderId, row);
      return [...rows.values()].sort((a, b) => a.orderId.localeCompare(b.orderId));
    };
    const readsBefore = jest.spyOn(store, 'readStream');
    const fromTiny = await replay(tiny);
    expect(readsBefore).toHaveBeenCalled();
    expect(fromTiny).toEqual(await replay(large));
  });

  it('diff reports a changed field and a missing row precisely', () => {
    const base = summaryOf(storedEvents([pay({ transactionId: 'p', amount: 7_000 })]))!;
    const other = { ...base, orderId: 'o-2' };
    const live = [base, { ...other, totalCaptured: 1 }];
    const replayed = [base, other, { ...other, orderId: 'o-3' }];
    expect([...diffOrderSummaries(live.values(), replayed.values())]).toEqual([
      { merchantId: 'TESTM', orderId: 'o-2', field: 'totalCaptured', live: 1, replayed: 7_000 },
      {
        merchantId: 'TESTM',
        orderId: 'o-3',
        field: 'row',
        live: 'missing',
        replayed: 'CAPTURED, revision 1',
      },
    ]);
  });
});
