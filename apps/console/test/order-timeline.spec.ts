import type { OrderEvent, TransactionRecord } from '@gateway/domain';
import type { StoredEvent } from '@gateway/event-store';
import type { Merchant } from '@gateway/merchants';
import type { OrderHistory } from '../src/orders/order-history';
import { OrderPages } from '../src/orders/order-pages';
import { causeOf, orderAsOf, timelineOf } from '../src/orders/timeline';
import { orderPage } from '../src/pages/order.page';

const at = (second: number) => new Date(Date.UTC(2026, 10, 26, 10, 0, second)).toISOString();
const MERCHANT = { causedBy: 'merchant.M1', apiOperation: 'AUTHORIZE' };

function tx(type: string, record: Partial<TransactionRecord> & { id: string }): OrderEvent {
  return {
    type,
    data: {
      type: 'AUTHORIZATION',
      amount: 20_000,
      currency: 'USD',
      gatewayCode: 'APPROVED',
      processor: {},
      echo: {},
      timeOfRecord: at(1),
      apiVersion: 100,
      requestHash: `hash-${record.id}`,
      ...record,
    },
  } as OrderEvent;
}

/** Events as the store returns them; recordedAt a day later than the facts, so it cannot pass for them. */
function stored(events: [OrderEvent, Record<string, unknown>][]): StoredEvent[] {
  return events.map(([event, metadata], revision) => ({
    ...event,
    eventId: `e${revision}`,
    metadata,
    streamId: 'order:M1:o-1',
    revision,
    position: BigInt(revision + 10),
    recordedAt: '2026-11-27T00:00:00.000Z',
  }));
}

const card = { number: '512345xxxxxx0008', expiry: { month: '1', year: '39' } };
const EVENTS = stored([
  [
    {
      type: 'OrderCreated',
      data: { merchantId: 'M1', orderId: 'o-1', currency: 'USD', creationTime: at(0) },
    },
    MERCHANT,
  ],
  [
    tx('AuthorizationProcessed', {
      id: 'a1',
      timeOfRecord: at(1),
      sourceOfFunds: { type: 'CARD', provided: { card } },
    }),
    MERCHANT,
  ],
  [
    tx('CaptureProcessed', {
      id: 'c1',
      type: 'CAPTURE',
      targetTransactionId: 'a1',
      timeOfRecord: at(2),
    }),
    { ...MERCHANT, apiOperation: 'CAPTURE' },
  ],
  [
    tx('RefundProcessed', {
      id: 'r1',
      type: 'REFUND',
      amount: 5_000,
      targetTransactionId: 'c1',
      timeOfRecord: at(3),
    }),
    { ...MERCHANT, apiOperation: 'REFUND' },
  ],
  [
    {
      type: 'DisputeOpened',
      data: { disputeId: 'd1', targetTransactionId: 'c1', amount: 1, currency: 'USD', time: at(4) },
    },
    { causedBy: 'acquirer', acquirerFact: 'DISPUTE' },
  ],
]);

describe("an order's timeline", () => {
  it('names the cause from causedBy: merchant, payer, acquirer, else the gateway', () => {
    expect(causeOf({ causedBy: 'merchant.M1' })).toBe('merchant');
    expect(causeOf({ causedBy: 'payer' })).toBe('payer');
    expect(causeOf({ causedBy: 'acquirer' })).toBe('acquirer');
    expect(causeOf({})).toBe('gateway');
    expect(causeOf({ causedBy: 'merchantM1' })).toBe('gateway');
  });

  it("lists every event in stream order at the gateway's time of the fact, not the commit time", () => {
    expect(timelineOf(EVENTS)).toEqual([
      {
        revision: 0,
        type: 'OrderCreated',
        time: at(0),
        cause: 'merchant',
        action: 'AUTHORIZE',
        transactions: [],
      },
      {
        revision: 1,
        type: 'AuthorizationProcessed',
        time: at(1),
        cause: 'merchant',
        action: 'AUTHORIZE',
        transactions: ['a1'],
      },
      {
        revision: 2,
        type: 'CaptureProcessed',
        time: at(2),
        cause: 'merchant',
        action: 'CAPTURE',
        transactions: ['c1'],
      },
      {
        revision: 3,
        type: 'RefundProcessed',
        time: at(3),
        cause: 'merchant',
        action: 'REFUND',
        transactions: ['r1'],
      },
      {
        revision: 4,
        type: 'DisputeOpened',
        time: at(4),
        cause: 'acquirer',
        action: 'DISPUTE',
        transactions: ['c1'],
      },
    ]);
  });

  it('folds the order up to the chosen event: captured, not yet refunded', () => {
    const then = orderAsOf(EVENTS, 2)!;
    expect(then.status).toBe('CAPTURED');
    expect(then.totals).toMatchObject({ authorized: 20_000, captured: 20_000, refunded: 0 });
    expect(then.transactions.map((t) => t.id)).toEqual(['a1', 'c1']);
    expect(orderAsOf(EVENTS)!.totals.refunded).toBe(5_000);
  });
});

describe('the order page', () => {
  const history = (events: StoredEvent[] | undefined) =>
    ({ events: async () => events, close: async () => undefined }) as unknown as OrderHistory;
  const merchants = (cardMask?: Merchant['cardMask']) => ({
    find: () => (cardMask ? ({ cardMask } as Merchant) : undefined),
  });

  it("masks the card as a GET with the merchant's password: the stricter of its mask and 6.4", async () => {
    const loose = await new OrderPages(history(EVENTS), merchants('8.4')).load('M1', 'o-1');
    const strict = await new OrderPages(history(EVENTS), merchants('0.4')).load('M1', 'o-1');
    const gone = await new OrderPages(history(EVENTS), merchants()).load('M1', 'o-1');
    const views = [loose, strict, gone].map((r) => (r.kind === 'order' ? r.model.view : r.kind));
    expect(views).toEqual([{ cardMask: '6.4' }, { cardMask: '0.4' }, { cardMask: '6.4' }]);
    if (strict.kind !== 'order') throw new Error(strict.kind);
    const body = orderPage({ username: 'fin', role: 'finance', csrf: 'x' } as never, strict.model);
    expect(body).toContain('xxxxxxxxxxxx0008');
    expect(body).not.toContain('512345');
  });

  it('shows the chosen point; an unknown point, a missing order and an unreadable store are not pages', async () => {
    const pages = new OrderPages(history(EVENTS), merchants('6.4'));
    const then = await pages.load('M1', 'o-1', '2');
    if (then.kind !== 'order') throw new Error(then.kind);
    expect(then.model.asOf).toBe(2);
    expect(then.model.order.status).toBe('CAPTURED');
    const body = orderPage({ username: 'fin', role: 'finance', csrf: 'x' } as never, then.model);
    expect(body).toContain('As of event 3, CaptureProcessed');
    expect(body).toMatch(/aria-current="true"\s*>CaptureProcessed/);
    const summaries = [...body.matchAll(/<summary>\s*(Transaction [^<]*?)\s*<\/summary>/g)];
    expect(summaries.map((m) => m[1].replace(/\s+/g, ' '))).toEqual([
      'Transaction a1: AUTHORIZATION, SUCCESS',
      'Transaction c1: CAPTURE, SUCCESS',
    ]);
    for (const point of ['5', '-1', '1.0', 'x', ''])
      expect((await pages.load('M1', 'o-1', point)).kind).toBe('bad-point');
    expect((await new OrderPages(history([]), merchants()).load('M1', 'o-2')).kind).toBe(
      'not-found',
    );
    expect((await new OrderPages(history(undefined), merchants()).load('M1', 'o-1')).kind).toBe(
      'unavailable',
    );
  });
});
