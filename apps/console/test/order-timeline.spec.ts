import type { OrderEvent, TransactionRecord } from '@gateway/domain';
import type { StoredEvent } from '@gateway/event-store';
import type { Merchant } from '@gateway/merchants';
import type { OrderHistory } from '../src/orders/order-history';
import { OrderPages } from '../src/orders/order-pages';
import { orderResponses } from '../src/orders/order-responses';
import { causeOf, orderAsOf, timelineOf } from '../src/orders/timeline';
import { PART_SIZE, timelinePart } from '../src/orders/timeline-part';
import { orderPage } from '../src/pages/order.page';
import { renderOrder } from '@gateway/order-view';

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
    expect(then.model.chosen?.revision).toBe(2);
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

describe("a long order's page", () => {
  const session = { username: 'fin', role: 'finance', csrf: 'x' } as never;
  const history = (events: StoredEvent[]) =>
    ({ events: async () => events, close: async () => undefined }) as unknown as OrderHistory;
  const merchants = { find: () => ({ cardMask: '6.4' }) as Merchant };
  /** Created, authorized, then `captures` partial captures: 2 + captures events. */
  const long = (captures: number) =>
    stored([
      [{ type: EVENTS[0].type, data: EVENTS[0].data } as OrderEvent, MERCHANT],
      [
        tx('AuthorizationProcessed', {
          id: 'a1',
          sourceOfFunds: { type: 'CARD', provided: { card } },
        }),
        MERCHANT,
      ],
      ...range(1, captures).map((i): [OrderEvent, Record<string, unknown>] => [
        tx('CaptureProcessed', {
          id: `c${i}`,
          type: 'CAPTURE',
          amount: 100,
          targetTransactionId: 'a1',
        }),
        { ...MERCHANT, apiOperation: 'CAPTURE' },
      ]),
    ]);
  const summaries = (body: string) =>
    [...body.matchAll(/<summary>\s*Transaction (\S+?):/g)].map((m) => m[1]);
  const links = (body: string) =>
    [...body.matchAll(/<a href="[^"?]*\?([^"]*)"(?: rel="\w+")?\s*>([^<]+)<\/a>/g)]
      .filter((m) => m[2].endsWith(' events'))
      .map((m) => `${m[2]}: ${m[1].replaceAll('&amp;', '&')}`);

  it("parts of PART_SIZE events: the one asked for, else the chosen event's, else the latest", () => {
    expect(PART_SIZE).toBe(25);
    expect(timelinePart(1002, undefined, undefined)).toEqual({
      number: 41,
      count: 41,
      first: 1000,
      last: 1001,
      events: 1002,
    });
    expect(timelinePart(1002, undefined, 3)).toMatchObject({ number: 1, first: 0, last: 24 });
    expect(timelinePart(1002, '2', 3)).toMatchObject({ number: 2, first: 25, last: 49 });
    expect(timelinePart(1002, undefined, 25)).toMatchObject({ number: 2 });
    expect(timelinePart(4, undefined, undefined)).toMatchObject({ number: 1, count: 1, last: 3 });
    for (const part of ['0', '42', '1.0', 'x', '', '-1', '99999999999'])
      expect(timelinePart(1002, part, undefined)).toBeUndefined();
  });

  it("shows the latest part, its transactions' responses, and links to the earlier parts", async () => {
    const events = long(60); // 62 events: parts of 25, 25, 12
    const now = await new OrderPages(history(events), merchants).load('M1', 'o-1');
    if (now.kind !== 'order') throw new Error(now.kind);
    expect(now.model.timeline.map((e) => e.revision)).toEqual(range(50, 61));
    const body = orderPage(session, now.model);
    expect(body).toContain('Events 51 to 62 of 62 (part 3 of 3)');
    expect(summaries(body)).toEqual(range(49, 60).map((i) => `c${i}`));
    expect(links(body)).toEqual(['First events: part=1', 'Earlier events: part=2']);
    // The header is the whole order's, whatever the part.
    expect(body).toMatch(/<dt>Transactions<\/dt>\s*<dd>61<\/dd>/);
  });

  it('keeps the chosen point while the timeline moves: links carry it, the order stays as of it', async () => {
    const pages = new OrderPages(history(long(60)), merchants);
    const chosen = await pages.load('M1', 'o-1', '2');
    if (chosen.kind !== 'order') throw new Error(chosen.kind);
    expect(chosen.model.part.number).toBe(1);
    const first = orderPage(session, chosen.model);
    expect(summaries(first)).toEqual(['a1', 'c1']);
    expect(links(first)).toEqual(['Later events: asOf=2&part=2', 'Latest events: asOf=2&part=3']);
    const later = await pages.load('M1', 'o-1', '2', '2');
    if (later.kind !== 'order') throw new Error(later.kind);
    const body = orderPage(session, later.model);
    expect(body).toContain('As of event 3, CaptureProcessed');
    expect(body).toMatch(/<dt>Transactions<\/dt>\s*<dd>2<\/dd>/);
    expect(summaries(body)).toEqual([]);
    expect(body).toContain('None of these events had recorded a transaction then.');
    expect(body).toMatch(
      /href="\/orders\/M1\/o-1\?asOf=2#timeline"\s*>Show the event on the timeline/,
    );
    expect(first).not.toContain('Show the event on the timeline');
    expect(links(body)).toEqual(['Earlier events: asOf=2&part=1', 'Later events: asOf=2&part=3']);
    expect((await pages.load('M1', 'o-1', undefined, '4')).kind).toBe('bad-point');
  });

  it('answers each transaction as Retrieve Order does, rendering only those asked for', () => {
    // A second card later: the order's fields show it, c1 still the first card.
    const other = { number: '411111xxxxxx1111', expiry: { month: '2', year: '40' } };
    const order = orderAsOf([
      ...EVENTS,
      ...stored([
        [
          tx('AuthorizationProcessed', {
            id: 'a2',
            sourceOfFunds: { type: 'CARD', provided: { card: other } },
          }),
          MERCHANT,
        ],
      ]).map((e) => ({ ...e, revision: 5 })),
    ])!;
    const view = { cardMask: '6.4' as const };
    const { transaction, ...fields } = renderOrder(order, view) as { transaction: unknown[] };
    const all = orderResponses(order, view, new Set(['a1', 'c1', 'r1', 'a2']));
    expect(all).toEqual({ fields, transactions: transaction });
    expect(JSON.stringify(fields)).toContain('411111xxxxxx1111');
    const some = orderResponses(order, view, new Set(['c1', 'a2', 'nope']));
    expect(some.transactions).toEqual([transaction[1], transaction[3]]);
    expect(JSON.stringify(some.transactions[0])).toContain('512345xxxxxx0008');
  });
});

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
