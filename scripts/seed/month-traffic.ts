import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomSource } from './order-scenarios';

/**
 * A month of mixed traffic through a real gateway started with GATEWAY_CLOCK=manual (issue 19,
 * "Done when"): each day its orders over the merchant API (in USD, a share of every kind in EUR,
 * so the books have a second currency), then the manual clock moved a minute at
 * a time until the janitor has learnt every UNKNOWN outcome (expiry 05/37) and charged back every
 * `.666` capture or payment, then a day on, past the settlement cut-off, and each merchant's file
 * of the day fetched from the operator endpoint. Deterministic for a seed number: the same orders,
 * amounts and operations every run (the times follow the gateway's clock).
 */
export interface MonthOptions {
  readonly baseUrl: string;
  /** merchant id → API password; test merchants (ids starting with TEST), so they settle */
  readonly merchants: Readonly<Record<string, string>>;
  readonly days: number;
  readonly ordersPerDay: number;
  readonly seed: number;
  /** where the settlement files go, `<merchant>-<date>.csv` */
  readonly outDir: string;
  readonly log?: (line: string) => void;
}

export type OrderKind =
  | 'captured'
  | 'partial-refunded'
  | 'voided-auth'
  | 'paid'
  | 'paid-refunded'
  | 'paid-voided'
  | 'disputed'
  | 'unknown-auth'
  | 'unknown-paid'
  | 'recon-missing'
  | 'recon-short';

export interface SeededOrder {
  readonly merchantId: string;
  readonly orderId: string;
  readonly kind: OrderKind;
  readonly currency: 'USD' | 'EUR';
  /** the UTC day (yyyy-mm-dd) its requests were made on the gateway's clock */
  readonly day: string;
}

export interface SeededMonth {
  readonly orders: readonly SeededOrder[];
  readonly days: readonly string[];
  /** The last millisecond of each day on the gateway's clock: what the books are dated by. */
  readonly dayEnds: readonly string[];
  /**
   * When each day was done (its batches settled) on the system clock: the store stamps events
   * with it when it commits them (`recordedAt`, what an audit export's range selects by), and a
   * manual gateway clock does not move it.
   */
  readonly committedBy: readonly string[];
  readonly files: readonly string[];
}

const KINDS: readonly OrderKind[] = [
  'captured',
  'captured',
  'partial-refunded',
  'voided-auth',
  'paid',
  'paid',
  'paid-refunded',
  'paid-voided',
  'disputed',
  'unknown-auth',
  'unknown-paid',
];
const DAY = 86_400_000;
/** The orders of each day in EUR: every fourth (so every kind, over a month). */
const EUR_EVERY = 4;

const card = (expiry: { month: string; year: string }) => ({
  type: 'CARD',
  provided: { card: { number: '5123450000000008', expiry, securityCode: '100' } },
});
const APPROVED = { month: '1', year: '39' };
const UNKNOWN = { month: '5', year: '37' };

export async function seedMonth(options: MonthOptions): Promise<SeededMonth> {
  const random = randomSource(options.seed);
  const merchantIds = Object.keys(options.merchants);
  const log = options.log ?? (() => undefined);
  const orders: SeededOrder[] = [];
  const days: string[] = [];
  const committedBy: string[] = [];
  const files: string[] = [];

  const operator = async (path: string, body: unknown): Promise<string> => {
    const res = await fetch(`${options.baseUrl}/operator/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`POST /operator/${path}: ${res.status} ${text}`);
    return text;
  };
  const clockNow = async (): Promise<number> =>
    Date.parse(
      ((await (await fetch(`${options.baseUrl}/operator/clock`)).json()) as { time: string }).time,
    );
  const api = async (
    merchantId: string,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<RetrievedOrder> => {
    const auth = Buffer.from(`merchant.${merchantId}:${options.merchants[merchantId]}`);
    const res = await fetch(
      `${options.baseUrl}/api/rest/version/100/merchant/${merchantId}/order/${path}`,
      {
        method,
        headers: {
          authorization: `Basic ${auth.toString('base64')}`,
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      },
    );
    const json = (await res.json()) as RetrievedOrder;
    if (res.status >= 300)
      throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };

  // Day one starts at 06:00 UTC tomorrow on the gateway's clock, so no day's traffic crosses a
  // midnight however long a day takes in real time.
  const now = await clockNow();
  const start = Math.floor(now / DAY) * DAY + DAY + 6 * 3_600_000;
  await operator('clock', { advance: `${start - now}ms` });

  for (let d = 0; d < options.days; d++) {
    const day = new Date(await clockNow()).toISOString().slice(0, 10);
    days.push(day);
    const waiting: SeededOrder[] = []; // for the janitor
    for (let i = 0; i < options.ordersPerDay; i++) {
      const merchantId = merchantIds[Math.floor(random() * merchantIds.length)];
      const kind: OrderKind =
        i === 0 && d % 3 === 0
          ? 'recon-missing'
          : i === 1 && d % 4 === 1
            ? 'recon-short'
            : KINDS[Math.floor(random() * KINDS.length)];
      const orderId = `m${options.seed}-${day}-${i}`;
      const order: SeededOrder = {
        merchantId,
        orderId,
        kind,
        currency: currencyOf(kind, d, i),
        day,
      };
      orders.push(order);
      if (kind === 'disputed' || kind.startsWith('unknown')) waiting.push(order);
      await runOrder(order, 100 + Math.floor(random() * 49_900), random() < 0.5, (m, p, b) =>
        api(m, 'PUT', p, b),
      );
    }
    // The janitor: inquiries learn the outcomes and disputes open a minute on, chargebacks after.
    const disputed = waiting.filter((order) => order.kind === 'disputed');
    const retrieve = (order: SeededOrder) => api(order.merchantId, 'GET', order.orderId);
    await operator('clock', { advance: '1m' });
    await waitFor(day, waiting, async (order) => {
      const seen = await retrieve(order);
      // A chargeback due 30 s after the dispute's due time may follow it in the same pass.
      const disputedYet = ['DISPUTED', 'CHARGEBACK_PROCESSED'].includes(seen.status ?? '');
      return !unknownIn(seen) && (order.kind !== 'disputed' || disputedYet);
    });
    await operator('clock', { advance: '1m' });
    await waitFor(
      day,
      disputed,
      async (order) => (await retrieve(order)).status === 'CHARGEBACK_PROCESSED',
    );
    // A day on: the day's batches close at the cut-off; each merchant's file fetched.
    await operator('clock', { advance: '1d' });
    for (const merchantId of merchantIds) {
      const file = join(options.outDir, `${merchantId}-${day}.csv`);
      writeFileSync(file, await operator('acquirer/settlement', { merchantId, date: day }));
      files.push(file);
    }
    committedBy.push(new Date().toISOString());
    log(`seed month: ${day}, ${options.ordersPerDay} orders, settled`);
  }
  const dayEnds = days.map((day) => `${day}T23:59:59.999Z`);
  return { orders, days, dayEnds, committedBy, files };
}

/**
 * Every fourth order of a day in EUR; of the RECON orders (one a day at most, on every third or
 * fourth day), every other one, so each kind of discrepancy shows in both currencies.
 */
function currencyOf(kind: OrderKind, d: number, i: number): SeededOrder['currency'] {
  const euros =
    kind === 'recon-missing'
      ? Math.floor(d / 3) % 2 === 1
      : kind === 'recon-short'
        ? Math.floor(d / 4) % 2 === 1
        : i % EUR_EVERY === EUR_EVERY - 1;
  return euros ? 'EUR' : 'USD';
}

type Put = (merchantId: string, path: string, body: unknown) => Promise<unknown>;

/** One order's requests, by its kind; `cents` its amount (1.00 to 499.99). */
async function runOrder(order: SeededOrder, cents: number, odd: boolean, put: Put) {
  const { merchantId, orderId, kind, currency } = order;
  const amount = (cents / 100).toFixed(2);
  const tx = (id: string, body: unknown) => put(merchantId, `${orderId}/transaction/${id}`, body);
  const first = (operation: string, value: string, expiry = APPROVED, reference?: string) =>
    tx(operation === 'PAY' ? 'pay' : 'auth', {
      apiOperation: operation,
      order: { amount: value, currency, ...(reference && { reference }) },
      sourceOfFunds: card(expiry),
    });
  const money = (value: string) => ({ amount: value, currency });
  const part = (share: number) => (Math.max(1, Math.floor(cents * share)) / 100).toFixed(2);
  switch (kind) {
    case 'captured':
      await first('AUTHORIZE', amount);
      return tx('cap', { apiOperation: 'CAPTURE', transaction: money(amount) });
    case 'partial-refunded':
      await first('AUTHORIZE', amount);
      await tx('cap', { apiOperation: 'CAPTURE', transaction: money(part(0.6)) });
      return tx('ref', { apiOperation: 'REFUND', transaction: money(part(0.2)) });
    case 'voided-auth':
      await first('AUTHORIZE', amount);
      return tx('void', { apiOperation: 'VOID', transaction: { targetTransactionId: 'auth' } });
    case 'paid':
      return first('PAY', amount);
    case 'paid-refunded':
      await first('PAY', amount);
      return tx('ref', { apiOperation: 'REFUND', transaction: money(part(0.5)) });
    case 'paid-voided':
      await first('PAY', amount);
      return tx('void', { apiOperation: 'VOID', transaction: { targetTransactionId: 'pay' } });
    case 'disputed':
      // An amount ending in .666: the acquirer disputes it and charges it back (docs/janitor.md).
      return first('PAY', `${Math.floor(cents / 100)}.666`);
    case 'unknown-auth':
    case 'unknown-paid':
      // UNKNOWN at first; learnt APPROVED for even thousandths, DECLINED for odd.
      return first(
        kind === 'unknown-auth' ? 'AUTHORIZE' : 'PAY',
        odd ? `${amount}1` : amount,
        UNKNOWN,
      );
    case 'recon-missing':
      return first('PAY', amount, APPROVED, `RECON-MISSING-${orderId}`);
    case 'recon-short':
      await first('AUTHORIZE', amount, APPROVED, `RECON-SHORT-${orderId}`);
      return tx('cap', { apiOperation: 'CAPTURE', transaction: money(amount) });
  }
}

/** What the seed reads of an answer (Retrieve Order's, or a transaction's). */
interface RetrievedOrder {
  readonly status?: string;
  readonly transaction?: readonly { readonly response?: { readonly gatewayCode?: string } }[];
}

const unknownIn = (order: RetrievedOrder): boolean =>
  (order.transaction ?? []).some((t) => t.response?.gatewayCode === 'UNKNOWN');

/** Polls (25 ms apart, 10 s at most) until every order is `done`. */
async function waitFor(
  day: string,
  orders: readonly SeededOrder[],
  done: (order: SeededOrder) => Promise<boolean>,
): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const left = [];
    for (const order of orders) if (!(await done(order))) left.push(order.orderId);
    if (left.length === 0) return;
    if (i === 399) throw new Error(`the janitor left ${left.join(', ')} of ${day}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
