import { formatAmount } from '@gateway/domain';
import type Database from 'better-sqlite3';

/** Where the bench's checks come from: the read model read with plain SQL, no index named. */
const COLUMNS = 'merchant_id AS merchantId, order_id AS orderId, creation_time AS creationTime';
const LIST_ORDER = 'ORDER BY creation_time DESC, order_id DESC';
export const PAGE = 25;

interface Key {
  readonly merchantId: string;
  readonly orderId: string;
  readonly creationTime: string;
}

/** One timed page: its URL, who asks, and the order ids it must list, in order. */
export interface PageCase {
  readonly label: string;
  readonly user: 'finance' | 'merchant';
  readonly path: string;
  readonly expected: readonly string[];
  /** How many orders match the search (all pages). */
  readonly matching: number;
}

interface Filter {
  readonly label: string;
  /** The Orders form's fields. */
  readonly form: Record<string, string>;
  /** The same filter in plain SQL, for the check. */
  readonly where: string;
  readonly params: Record<string, unknown>;
}

/** The filters the Orders page offers, each for a merchant user and for finance. */
function filters(db: Database.Database, merchant: string): { user: PageCase['user']; f: Filter }[] {
  // An order a third of the way down the merchant's list: its id and reference are searched.
  const orders = db
    .prepare('SELECT count(*) FROM order_summary WHERE merchant_id = ?')
    .pluck()
    .get(merchant) as number;
  const mine = db
    .prepare(
      `SELECT order_id, reference FROM order_summary WHERE merchant_id = ? ${LIST_ORDER} LIMIT 1 OFFSET ?`,
    )
    .get(merchant, Math.floor(orders / 3)) as { order_id: string; reference: string };
  const amount = db
    .prepare(
      'SELECT amount FROM order_summary WHERE merchant_id = ? GROUP BY amount ORDER BY count(*) DESC LIMIT 1',
    )
    .pluck()
    .get(merchant) as number;
  const range = { from: '2026-10-01', to: '2026-11-15' };
  const inRange =
    "creation_time >= '2026-10-01T00:00:00.000Z' AND creation_time < '2026-11-16T00:00:00.000Z'";
  const scoped: Filter[] = [
    {
      label: 'reference',
      form: { reference: mine.reference },
      where: 'reference = @v',
      params: { v: mine.reference },
    },
    {
      label: 'amount',
      form: { amount: formatAmount(amount) },
      where: 'amount = @v',
      params: { v: amount },
    },
    { label: 'last four', form: { card: '0008' }, where: "card_last_four = '0008'", params: {} },
    {
      label: 'combined (status, dates, last four)',
      form: { status: 'CAPTURED', ...range, card: '0008' },
      where: `status = 'CAPTURED' AND ${inRange} AND card_last_four = '0008'`,
      params: {},
    },
  ];
  const anyScope: Filter[] = [
    { label: 'none', form: {}, where: '1', params: {} },
    {
      label: 'order id',
      form: { orderId: mine.order_id },
      where: 'order_id = @v',
      params: { v: mine.order_id },
    },
    { label: 'status', form: { status: 'CAPTURED' }, where: "status = 'CAPTURED'", params: {} },
    { label: 'date range (46 days)', form: range, where: inRange, params: {} },
  ];
  const ofMerchant = (f: Filter): Filter => ({
    ...f,
    form: { merchant, ...f.form },
    where: `merchant_id = @m AND ${f.where}`,
    params: { ...f.params, m: merchant },
  });
  return [
    ...[...anyScope, ...scoped].map((f) => ({ user: 'merchant' as const, f: ofMerchant(f) })),
    // Finance: every merchant where the form allows it; reference, amount, card name the merchant.
    ...anyScope.map((f) => ({ user: 'finance' as const, f })),
    ...scoped.map((f) => ({ user: 'finance' as const, f: ofMerchant(f) })),
  ];
}

/** A keyset cursor as the console writes it (pages/orders.page.ts' encodeCursor). */
const cursorOf = (key: Key) =>
  Buffer.from(JSON.stringify([key.creationTime, key.orderId])).toString('base64url');

/**
 * Every Orders case: each filter's first page and, when it has more than two, its last full page
 * (keyset: the deepest page costs what a scan would if the cursor did not bound the index read).
 */
export function orderCases(db: Database.Database, merchant: string): PageCase[] {
  const cases: PageCase[] = [];
  for (const { user, f } of filters(db, merchant)) {
    const matching = db
      .prepare(`SELECT count(*) FROM order_summary WHERE ${f.where}`)
      .pluck()
      .get(f.params) as number;
    const page = (after?: Key) =>
      (
        db
          .prepare(
            `SELECT ${COLUMNS} FROM order_summary WHERE ${f.where}
             ${after ? 'AND (creation_time, order_id) < (@t, @o)' : ''} ${LIST_ORDER} LIMIT ${PAGE}`,
          )
          .all({
            ...f.params,
            ...(after ? { t: after.creationTime, o: after.orderId } : {}),
          }) as Key[]
      ).map((k) => k.orderId);
    // Only the form's fields: a merchant user's scope is its session's, not the query's.
    const form = user === 'merchant' ? withoutMerchant(f.form) : f.form;
    const query = new URLSearchParams(form).toString();
    const who = user === 'merchant' ? 'merchant user' : 'finance';
    cases.push({
      label: `${who}: ${f.label}`,
      user,
      path: `/orders?${query}`,
      expected: page(),
      matching,
    });
    if (matching <= 2 * PAGE) continue;
    const depth = matching - PAGE - 1;
    const cursor = db
      .prepare(
        `SELECT ${COLUMNS} FROM order_summary WHERE ${f.where} ${LIST_ORDER} LIMIT 1 OFFSET ${depth}`,
      )
      .get(f.params) as Key;
    const after = new URLSearchParams({ ...form, after: cursorOf(cursor) }).toString();
    cases.push({
      label: `${who}: ${f.label}, last page`,
      user,
      path: `/orders?${after}`,
      expected: page(cursor),
      matching,
    });
  }
  return cases;
}

function withoutMerchant(form: Record<string, string>): Record<string, string> {
  const { merchant: _merchant, ...rest } = form;
  return rest;
}

/** The Disputes and UNKNOWN pages of each user, with the orders they must list. */
export function listCases(db: Database.Database, merchant: string): PageCase[] {
  const ids = (where: string, limit: number, m?: string) =>
    db
      .prepare(
        `SELECT order_id FROM order_summary WHERE ${where} ${m ? 'AND merchant_id = @m' : ''} ${LIST_ORDER} LIMIT ${limit}`,
      )
      .pluck()
      .all(m ? { m } : {}) as string[];
  const count = (where: string, m?: string) =>
    db
      .prepare(
        `SELECT count(*) FROM order_summary WHERE ${where} ${m ? 'AND merchant_id = @m' : ''}`,
      )
      .pluck()
      .get(m ? { m } : {}) as number;
  const cases: PageCase[] = [];
  for (const [user, m] of [
    ['merchant', merchant],
    ['finance', undefined],
  ] as const) {
    const who = user === 'merchant' ? 'merchant user' : 'finance';
    cases.push({
      label: `${who}: Disputes`,
      user,
      path: '/disputes',
      expected: [
        ...ids("status = 'DISPUTED'", 50, m),
        ...ids("status = 'CHARGEBACK_PROCESSED'", 50, m),
      ],
      matching: count("status IN ('DISPUTED', 'CHARGEBACK_PROCESSED')", m),
    });
    cases.push({
      label: `${who}: UNKNOWN`,
      user,
      path: '/unknown',
      expected: ids('unknown_count > 0', PAGE, m),
      matching: count('unknown_count > 0', m),
    });
  }
  return cases;
}

/** The order ids a list page shows, in order: each row's header links to its order. */
export function listedOrders(body: string): string[] {
  return [...body.matchAll(/<th scope="row"><a href="\/orders\/[^/"]+\/([^"?]+)">/g)].map((m) =>
    decodeURIComponent(m[1]),
  );
}
