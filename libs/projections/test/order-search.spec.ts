import {
  searchNeedsMerchant,
  SqliteOrderSearch,
  SqliteOrderSummaryReadModel,
  type OrderSearch,
  type OrderSummary,
} from '@gateway/projections';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Order i of merchant M or N: one a minute, every third one with a reference, cards and amounts cycling. */
function order(i: number): OrderSummary {
  const minute = String(i % 60).padStart(2, '0');
  const hour = String(Math.floor(i / 60) % 24).padStart(2, '0');
  return {
    merchantId: i % 2 ? 'N' : 'M',
    orderId: `o${String(i).padStart(4, '0')}`,
    status: i % 5 === 0 ? 'CAPTURED' : 'AUTHORIZED',
    currency: 'USD',
    totalAuthorized: 1000,
    totalCaptured: 0,
    totalRefunded: 0,
    totalChargeback: 0,
    unknownTransactions: i % 7 === 0 ? 1 : 0,
    totalUnknown: i % 7 === 0 ? 1000 : 0,
    creationTime: `2026-11-2${1 + Math.floor(i / 1440)}T${hour}:${minute}:00.000Z`,
    lastUpdatedTime: '2026-11-26T00:00:00.000Z',
    transactionCount: 1,
    streamRevision: 1,
    amount: (i % 4) * 1000,
    ...(i % 3 === 0 ? { reference: `ref-${i % 9}` } : {}),
    ...(i % 10 !== 9 ? { cardLastFour: String(1000 + (i % 3)) } : {}),
  };
}

describe('SqliteOrderSearch', () => {
  const dir = mkdtempSync(join(tmpdir(), 'order-search-'));
  const file = join(dir, 'read-model.db');
  const all = Array.from({ length: 2000 }, (_, i) => order(i));
  let search: SqliteOrderSearch;
  beforeAll(() => {
    const model = SqliteOrderSummaryReadModel.open(file);
    model.commit(all, undefined, 1n);
    model.close();
    search = SqliteOrderSearch.openReadOnly(file);
  });
  afterAll(() => {
    search.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The same search done by hand over every row, newest first. */
  const expected = (s: OrderSearch, keep: (o: OrderSummary) => boolean) =>
    all
      .filter((o) => (s.merchantId === undefined || o.merchantId === s.merchantId) && keep(o))
      .sort((a, b) =>
        a.creationTime === b.creationTime
          ? b.orderId.localeCompare(a.orderId)
          : b.creationTime.localeCompare(a.creationTime),
      );

  /** Every page of a search, following its cursors. */
  function pages(s: OrderSearch): OrderSummary[] {
    const rows: OrderSummary[] = [];
    let after = s.after;
    do {
      const page = search.search({ ...s, ...(after ? { after } : {}) });
      rows.push(...page.rows);
      after = page.next;
    } while (after);
    return rows;
  }

  const cases: [string, OrderSearch, (o: OrderSummary) => boolean, RegExp][] = [
    ['a merchant', { merchantId: 'M', limit: 50 }, () => true, /order_summary_listing/],
    [
      'an order id',
      { merchantId: 'N', orderId: 'o0011', limit: 5 },
      (o) => o.orderId === 'o0011',
      /PRIMARY KEY/,
    ],
    [
      'a reference',
      { merchantId: 'M', reference: 'ref-3', limit: 7 },
      (o) => o.reference === 'ref-3',
      /by_reference/,
    ],
    [
      'a card',
      { merchantId: 'N', cardLastFour: '1002', limit: 40 },
      (o) => o.cardLastFour === '1002',
      /by_card/,
    ],
    [
      'an amount',
      { merchantId: 'M', amount: 2000, limit: 40 },
      (o) => o.amount === 2000,
      /by_amount/,
    ],
    [
      'a status',
      { merchantId: 'M', status: 'CAPTURED', limit: 40 },
      (o) => o.status === 'CAPTURED',
      /by_status/,
    ],
    [
      'UNKNOWN ones',
      { merchantId: 'N', unknownOnly: true, limit: 40 },
      (o) => o.unknownTransactions > 0,
      /unknown_orders/,
    ],
    [
      'a card in a date range',
      {
        merchantId: 'M',
        cardLastFour: '1001',
        from: '2026-11-21T10:00:00.000Z',
        to: '2026-11-22T02:00:00.000Z',
        limit: 30,
      },
      (o) =>
        o.cardLastFour === '1001' &&
        o.creationTime >= '2026-11-21T10:00:00.000Z' &&
        o.creationTime < '2026-11-22T02:00:00.000Z',
      /by_card/,
    ],
    ['every merchant', { limit: 100 }, () => true, /order_summary_recent\b/],
    [
      'every merchant, a status',
      { status: 'CAPTURED', limit: 100 },
      (o) => o.status === 'CAPTURED',
      /recent_by_status/,
    ],
    [
      'every merchant, an order id',
      { orderId: 'o0012', limit: 5 },
      (o) => o.orderId === 'o0012',
      /by_order_id/,
    ],
  ];

  it.each(cases)(
    '%s: every page in order, none skipped or repeated, read from its index',
    (_name, s, keep, index) => {
      expect(pages(s)).toEqual(expected(s, keep));
      const plan = search.plan(s);
      expect(plan.join('\n')).toMatch(index);
      // Read in list order from the index: no sort of the matching rows, no scan of the table.
      expect(plan.join('\n')).not.toMatch(/TEMP B-TREE|SCAN order_summary$/);
    },
  );

  it('UNKNOWN ones of every merchant: from the partial index of those orders only', () => {
    const s = { unknownOnly: true, limit: 25 };
    expect(pages(s)).toEqual(expected(s, (o) => o.unknownTransactions > 0));
    expect(search.plan(s).join('\n')).toMatch(/USING INDEX order_summary_unknown\b/);
  });

  it("a deep page of a date range starts from its cursor, not from the range's end", () => {
    const range = { from: '2026-11-21T02:00:00.000Z', to: '2026-11-22T10:00:00.000Z' };
    const inRange = (o: OrderSummary) => o.creationTime >= range.from && o.creationTime < range.to;
    const rows = expected({ limit: 0 }, inRange);
    const after = { creationTime: rows[900].creationTime, orderId: rows[900].orderId };
    for (const base of [{}, { status: 'CAPTURED' as const }, { merchantId: 'N' }]) {
      const s: OrderSearch = { ...base, ...range, after, limit: 25 };
      const keep = (o: OrderSummary) =>
        inRange(o) && (base.status === undefined || o.status === base.status);
      expect(pages(s)).toEqual(
        expected(s, keep).filter((o) => o.creationTime < after.creationTime),
      );
      // The cursor bounds the index range: the rows above it are not walked through.
      expect(search.plan(s).join('\n')).toMatch(/\(creation_time,order_id\)<\(\?,\?\)/);
    }
  });

  it("a cursor at or past the range's end (crafted) still keeps to the range", () => {
    const s: OrderSearch = {
      from: '2026-11-21T02:00:00.000Z',
      to: '2026-11-21T03:00:00.000Z',
      after: { creationTime: '2026-11-22T00:00:00.000Z', orderId: 'o9999' },
      limit: 100,
    };
    const rows = search.search(s).rows;
    expect(rows).toHaveLength(60);
    expect(rows.every((o) => o.creationTime < s.to!)).toBe(true);
  });

  it('refuses a reference, card or amount over every merchant: those indexes start with it', () => {
    expect(searchNeedsMerchant({ reference: 'ref-3' })).toBe(true);
    expect(searchNeedsMerchant({ status: 'CAPTURED' })).toBe(false);
    expect(() => search.search({ cardLastFour: '1001', limit: 5 })).toThrow(/names its merchant/);
  });
});
