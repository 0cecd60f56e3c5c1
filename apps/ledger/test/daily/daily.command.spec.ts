import type { EventReader, StoredEvent } from '@gateway/event-store';
import { PassThrough } from 'node:stream';
import { daily, type DailyOptions } from '../../src/commands/daily.command';

/**
 * An event log in memory: the order events given, in order, dated on their days by the gateway's
 * clock (each type's own time field, as factTimeOf reads it), all committed to the store a month
 * later: the report goes by the gateway's time, not the store's.
 */
function logOf(
  events: [day: string, merchant: string, order: string, type: string, data: object][],
): EventReader {
  const stored: StoredEvent[] = events.map(([day, merchant, order, type, data], i) => ({
    eventId: String(i),
    streamId: `order:${merchant}:${order}`,
    revision: events.slice(0, i).filter(([, m, o]) => m === merchant && o === order).length,
    position: BigInt(i + 1),
    recordedAt: '2026-12-15T12:00:00.000Z',
    type,
    data: { ...data, [TIME_FIELD[type] ?? 'timeOfRecord']: `${day}T12:00:00.000Z` },
    metadata: {} as StoredEvent['metadata'],
  }));
  return {
    readAll: async ({ after = 0n, maxCount = 1000, streamPrefix = '' } = {}) =>
      stored
        .filter((e) => e.position > after && e.streamId.startsWith(streamPrefix))
        .slice(0, maxCount),
    readStream: async (streamId: string) => stored.filter((e) => e.streamId === streamId),
    headPosition: async () => BigInt(stored.length),
    close: async () => undefined,
  } as EventReader;
}

/** Where each type other than a transaction's keeps its time. */
const TIME_FIELD: Record<string, string> = {
  OrderCreated: 'creationTime',
  TransactionOutcomeLearned: 'time',
  BrowserPaymentConfirmed: 'time',
  TransactionsSettled: 'time',
};
const created = (currency = 'USD') => ({ currency });
const tx = (id: string, type: string, amount: number, gatewayCode = 'APPROVED') => ({
  id,
  type,
  amount,
  currency: 'USD',
  gatewayCode,
});

async function report(log: EventReader, options: DailyOptions): Promise<Record<string, string>[]> {
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk) => (text += chunk));
  const err = new PassThrough() as unknown as NodeJS.WriteStream;
  expect(await daily(log, { ...options, format: 'jsonl' }, { out, err })).toBe(0);
  return text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

const D1 = '2026-11-01';
const D2 = '2026-11-02';

describe('daily: per day, merchant and currency, the sums of the transactions', () => {
  const log = logOf([
    [D1, 'M', 'o1', 'OrderCreated', created()],
    [D1, 'M', 'o1', 'AuthorizationProcessed', tx('a', 'AUTHORIZATION', 100_000)],
    [D1, 'M', 'o1', 'CaptureProcessed', tx('c', 'CAPTURE', 60_000)],
    [D1, 'M', 'o2', 'OrderCreated', created()],
    [D1, 'M', 'o2', 'PaymentProcessed', tx('p', 'PAYMENT', 20_000)],
    [D1, 'M', 'o3', 'OrderCreated', created()],
    [D1, 'M', 'o3', 'AuthorizationProcessed', tx('a', 'AUTHORIZATION', 5_000, 'DECLINED')],
    [D1, 'M', 'o4', 'OrderCreated', created()],
    [D1, 'M', 'o4', 'PaymentProcessed', tx('p', 'PAYMENT', 7_000, 'UNKNOWN')],
    [D2, 'M', 'o4', 'TransactionOutcomeLearned', { transactionId: 'p', gatewayCode: 'APPROVED' }],
    [D2, 'M', 'o1', 'RefundProcessed', tx('r', 'REFUND', 10_000)],
    [D2, 'M', 'o2', 'ChargebackProcessed', tx('cb', 'CHARGEBACK', 20_000)],
    [
      D2,
      'M',
      'o1',
      'TransactionsSettled',
      {
        transactions: [
          { transactionId: 'c', settledAmount: 60_000, fee: 1_000 },
          { transactionId: 'r', settledAmount: 10_000, fee: 0 },
        ],
      },
    ],
    [D2, 'N', 'o1', 'OrderCreated', created('EUR')],
    [D2, 'N', 'o1', 'PaymentProcessed', { ...tx('p', 'PAYMENT', 3_000), currency: 'EUR' }],
  ]);

  it('adds each approved transaction on its day; a learnt outcome on the day it was learnt; a settlement net of fees, refunds negative', async () => {
    expect(await report(log, { from: D1, to: D2 })).toEqual([
      {
        day: D1,
        merchant: 'M',
        currency: 'USD',
        authorised: '120.00',
        captured: '80.00',
        refunded: '0.00',
        chargedBack: '0.00',
        settled: '0.00',
        fees: '0.00',
        net: '0.00',
      },
      {
        day: D2,
        merchant: 'M',
        currency: 'USD',
        authorised: '7.00',
        captured: '7.00',
        refunded: '10.00',
        chargedBack: '20.00',
        settled: '50.00',
        fees: '1.00',
        net: '49.00',
      },
      {
        day: D2,
        merchant: 'N',
        currency: 'EUR',
        authorised: '3.00',
        captured: '3.00',
        refunded: '0.00',
        chargedBack: '0.00',
        settled: '0.00',
        fees: '0.00',
        net: '0.00',
      },
    ]);
  });

  it('keeps to the days and the merchant asked for', async () => {
    expect(
      (await report(log, { from: D2, to: D2, merchant: 'N' })).map((r) => [r.day, r.merchant]),
    ).toEqual([[D2, 'N']]);
    expect(await report(log, { from: '2026-11-03', to: '2026-11-30' })).toEqual([]);
  });

  it('a learnt outcome already approved is not counted twice', async () => {
    const again = logOf([
      [D1, 'M', 'o', 'OrderCreated', created()],
      [D1, 'M', 'o', 'PaymentProcessed', tx('p', 'PAYMENT', 7_000)],
      [D1, 'M', 'o', 'BrowserPaymentConfirmed', { transactionId: 'p', gatewayCode: 'APPROVED' }],
    ]);
    expect((await report(again, { from: D1, to: D1 }))[0]).toMatchObject({
      authorised: '7.00',
      captured: '7.00',
    });
  });

  it.each([
    [{ to: D1 }, /daily needs --from YYYY-MM-DD/],
    [{ from: D1, to: '2026-02-30' }, /--to '2026-02-30' is not a day/],
    [{ from: D2, to: D1 }, /--to 2026-11-01 is before --from 2026-11-02/],
  ])('refuses %j as a usage mistake', async (options, message) => {
    await expect(report(log, options)).rejects.toThrow(message);
  });
});
