import { orderStreamId, type OrderEvent } from '@gateway/domain';
import { InMemoryEventStore } from '@gateway/event-store';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  at,
  authorize,
  created,
  refund,
  transaction,
} from '../../accounting/test/postings.fixtures';
import {
  dailyTotals,
  ledgerDbOf,
  openPostings,
  reconcile,
  trialBalance,
  unknownTotals,
  type ReconcileException,
} from '../src';

/** The calls a page makes (libs/ledger/src/index.ts), over one small log of two merchants. */
const BATCH = 20261126;
const day = at(0).slice(0, 10);
const capture = (id: string, amount: number) =>
  transaction('CaptureProcessed', 'CAPTURE', id, amount, {
    targetTransactionId: 'a1',
    processor: { transaction: { acquirer: { batch: BATCH } } },
  } as object);
const createdAs = (merchantId: string, orderId: string, currency: string): OrderEvent => ({
  type: 'OrderCreated',
  data: { ...(created.data as object), merchantId, orderId, currency } as never,
});

async function logOf(
  orders: readonly [merchant: string, order: string, events: readonly OrderEvent[]][],
): Promise<InMemoryEventStore> {
  const log = new InMemoryEventStore();
  for (const [merchant, order, events] of orders)
    await log.appendToStream(
      orderStreamId(merchant, order),
      events.map((e, i) => ({ ...e, eventId: `${merchant}-${order}-${i}`, metadata: {} })),
      'any',
    );
  return log;
}

let dir: string;
let log: InMemoryEventStore;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-lib-'));
  log = await logOf([
    ['M1', 'o-1', [created, authorize('a1', 100_000), capture('c1', 60_000), capture('c2', 5_000)]],
    ['M2', 'o-2', [createdAs('M2', 'o-2', 'EUR'), authorize('e1', 7_000, { currency: 'EUR' })]],
  ]);
  await log.appendToStream(
    orderStreamId('M1', 'o-1'),
    [{ ...refund('r1', 10_000), eventId: 'r1', metadata: {} }],
    'any',
  );
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('dailyTotals', () => {
  it("gives a row per day, merchant and currency in thousandths, only the merchant's when asked", async () => {
    const fractions: number[] = [];
    const rows = await dailyTotals(log, { from: day, to: day }, (_events, f) => fractions.push(f));
    const figures = { chargedBack: 0, settled: 0, fees: 0, net: 0 };
    expect(rows).toEqual([
      {
        day,
        merchant: 'M1',
        currency: 'USD',
        authorised: 100_000,
        captured: 65_000,
        refunded: 10_000,
        ...figures,
      },
      {
        day,
        merchant: 'M2',
        currency: 'EUR',
        authorised: 7_000,
        captured: 0,
        refunded: 0,
        ...figures,
      },
    ]);
    expect(fractions.at(-1)).toBe(1);
    expect(await dailyTotals(log, { from: day, to: day, merchant: 'M2' })).toEqual([rows[1]]);
    expect(await dailyTotals(log, { from: '2026-11-27', to: '2026-11-30' })).toEqual([]);
  });
});

describe('trialBalance', () => {
  it('balances per currency from the caught-up postings, and names the hourly sums when they are damaged', async () => {
    const file = ledgerDbOf(dir);
    const store = await openPostings(log, file);
    try {
      const balance = trialBalance(store, at(59));
      expect(balance.balanced).toBe(true);
      expect(balance.currencies.map((c) => c.currency)).toEqual(['EUR', 'USD']);
      for (const { total, accounts } of balance.currencies) {
        expect(total.debit).toBe(total.credit);
        expect(total.debit).toBe(accounts.reduce((sum, a) => sum + a.debit, 0));
      }
      expect(trialBalance(store, '2026-11-25T00:00:00.000Z').currencies).toEqual([]);
      const db = new Database(file);
      // One account's hourly sum off by a thousandth: every entry still balances.
      db.prepare(
        `UPDATE hourly SET amount = amount + 1 WHERE currency = 'USD' AND account = (
           SELECT account FROM hourly WHERE currency = 'USD' LIMIT 1)`,
      ).run();
      db.close();
      const damaged = trialBalance(store, '2026-11-27T00:00:00.000Z');
      expect(damaged).toMatchObject({ balanced: false, unequal: ['USD'] });
      expect(damaged.unbalancedEntry).toBeUndefined();
    } finally {
      store.close();
    }
  });
});

describe('reconcile', () => {
  it('hands each exception over as found, then gives the matched totals per currency', async () => {
    const file = join(dir, 'settlement.csv');
    writeFileSync(
      file,
      [
        'batch,settlementDate,orderId,transactionId,acquirerTransactionId,type,currency,grossAmount,fee,netAmount',
        `${BATCH},2026-11-26,o-1,c1,1,CAPTURE,USD,60.00,0.00,60.00`,
        `${BATCH},2026-11-26,o-1,x9,2,CAPTURE,USD,5.00,0.00,5.00`,
        `TRAILER,${BATCH},2026-11-26,USD,2,65.00,0.00,65.00`,
      ].join('\n'),
    );
    const found: ReconcileException[] = [];
    const result = await reconcile(log, [file], (e) => void found.push(e));
    expect(found.map((e) => [e.kind, e.orderId, e.transactionId, e.at])).toEqual([
      ['UNKNOWN_TO_GATEWAY', 'o-1', 'x9', `${file}:3`],
      ['NOT_SETTLED', 'o-1', 'c2', undefined],
    ]);
    expect(result).toEqual({
      exceptions: 2,
      matched: [{ currency: 'USD', lines: 1, gross: 60_000, fee: 0, net: 60_000 }],
    });
  });
});

describe('unknownTotals', () => {
  it('sums what is in UNKNOWN per currency until an outcome is learnt, for one merchant when asked', async () => {
    const unknown = await logOf([
      ['M1', 'o-1', [created, authorize('a1', 100_000, { gatewayCode: 'UNKNOWN' })]],
      ['M1', 'o-3', [created, authorize('a3', 1_000, { gatewayCode: 'UNKNOWN' })]],
      [
        'M2',
        'o-2',
        [
          createdAs('M2', 'o-2', 'EUR'),
          authorize('e1', 7_000, { currency: 'EUR', gatewayCode: 'UNKNOWN' }),
        ],
      ],
    ]);
    expect(await unknownTotals(unknown)).toEqual([
      { currency: 'EUR', transactions: 1, amount: 7_000 },
      { currency: 'USD', transactions: 2, amount: 101_000 },
    ]);
    const learnt = { transactionId: 'a1', time: at(30), gatewayCode: 'APPROVED' };
    await unknown.appendToStream(
      orderStreamId('M1', 'o-1'),
      [{ type: 'TransactionOutcomeLearned', data: learnt, eventId: 'l1', metadata: {} }],
      'any',
    );
    expect(await unknownTotals(unknown, 'M1')).toEqual([
      { currency: 'USD', transactions: 1, amount: 1_000 },
    ]);
  });
});
