import { KurrentDbEventStore, SqliteEventStore } from '@gateway/event-store';
import { join, resolve } from 'node:path';
import {
  MAIN,
  makeDataDir,
  merchantClient,
  orderIds,
  startGateway,
  startNodeProcess,
} from '../support/gateway-process';
import { makeKeysFile } from '../support/keys-file';
import {
  startKurrentDbStandin,
  type KurrentDbStandin,
} from '../support/kurrentdb-standin/standin-server';
import { closeBatch, payBody, sendSettlementDay } from '../support/settlement-day';

/**
 * Settlement over HTTP (docs/settlement.md): a day's captures, payments and refunds of a test
 * merchant close into the acquirer's file at the cut-off, or when an operator closes the batch;
 * closing twice gives the same file and records nothing new; a run killed (-9) halfway is
 * finished after the restart with each order settled once. The day is made to pass by starting
 * the gateway again with its clock a day ahead (test/support/clock-ahead.js).
 */
const DAY_AHEAD = {
  NODE_OPTIONS: `--require ${resolve(__dirname, '../support/clock-ahead.js')}`,
  CLOCK_AHEAD_DAYS: '1',
};
const DEBIT_CARD = '4508750015741019';
const newOrder = orderIds('settle');

/** The events of each stream of the data directory's store (read after the gateway stopped). */
async function eventsByStream(dataDir: string): Promise<Map<string, string[]>> {
  const store = await SqliteEventStore.open({ filename: join(dataDir, 'events.db') });
  try {
    const byStream = new Map<string, string[]>();
    for (const event of await store.readAll({ maxCount: 1_000_000 }))
      byStream.set(event.streamId, [...(byStream.get(event.streamId) ?? []), event.type]);
    return byStream;
  } finally {
    await store.close();
  }
}

/** The file's lines and trailers, as cells. */
function parseFile(csv: string) {
  const rows = csv
    .trimEnd()
    .split('\r\n')
    .map((row) => row.split(','));
  return {
    header: rows[0],
    lines: rows.slice(1).filter((r) => r[0] !== 'TRAILER'),
    trailers: rows.filter((r) => r[0] === 'TRAILER'),
  };
}

const cents = (text: string) => Math.round(Number(text) * 1000);

describe('settlement', () => {
  let dataDir: string;
  let date: string;
  let orders: Record<string, string>;

  beforeAll(async () => {
    dataDir = await makeDataDir();
    const today = await startGateway(dataDir);
    try {
      ({ date, orders } = await sendSettlementDay(today, newOrder, { debitCard: DEBIT_CARD }));

      // Refusals, each the spec's error object, nothing recorded: the day has not ended yet.
      const refusals: [unknown, string, string][] = [
        [{ merchantId: 'TESTMERCHANT', date }, 'date', `The batch of ${date} is still open`],
        [{ merchantId: 'TESTMERCHANT', date: '2999-01-01' }, 'date', 'is still open'],
        [{ merchantId: 'TESTMERCHANT', date: '2026-02-30' }, 'date', 'YYYY-MM-DD'],
        [{ merchantId: 'NOSUCHMERCHANT', date: '2020-01-01' }, 'merchantId', 'is unknown'],
        [{ merchantId: 'LIVEMERCHANT', date: '2020-01-01' }, 'merchantId', 'not a test merchant'],
        [{ date: '2020-01-01' }, 'merchantId', 'missing'],
      ];
      for (const [body, field, explanation] of refusals) {
        const res = await closeBatch(today, body);
        expect(res.status).toBe(400);
        const error = ((await res.json()) as { error: Record<string, string> }).error;
        expect(error).toMatchObject({ cause: 'INVALID_REQUEST', field });
        expect(error.explanation).toContain(explanation);
      }
    } finally {
      await today.stop();
    }
    const streams = await eventsByStream(dataDir);
    expect([...streams.keys()].filter((id) => id.startsWith('settlement:'))).toEqual([]);
  });

  it('closes the day at the cut-off into a file whose trailer matches its lines; closing again gives the same file', async () => {
    const tomorrow = await startGateway(dataDir, DAY_AHEAD);
    let first: string;
    try {
      const res = await closeBatch(tomorrow, { merchantId: 'TESTMERCHANT', date });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
      first = await res.text();
      const again = await closeBatch(tomorrow, { merchantId: 'TESTMERCHANT', date });
      expect(await again.text()).toBe(first);

      // Retrieval shows what the acquirer settled, and leaves out what it did not.
      const api = merchantClient(tomorrow);
      const short = await api.get(`/order/${orders.short}/transaction/pay`);
      expect(short.body.transaction.acquirer).toMatchObject({
        batch: Number(date.replaceAll('-', '')),
        settlementDate: date,
        settlement: { amount: 49.99, fee: 0.85 },
      });
      const missing = await api.get(`/order/${orders.missing}/transaction/pay`);
      expect(missing.body.transaction.acquirer.settlement).toBeUndefined();
    } finally {
      await tomorrow.stop();
    }

    const { header, lines, trailers } = parseFile(first);
    expect(header[0]).toBe('batch');
    const batch = date.replaceAll('-', '');
    const row = (order: string, tx: string) =>
      lines.find((l) => l[2] === order && l[3] === tx)?.slice(5);
    expect(row(orders.captured, 'cap')).toEqual(['CAPTURE', 'USD', '60.00', '1.00', '59.00']);
    expect(row(orders.captured, 'ref')).toEqual(['REFUND', 'USD', '-10.00', '0.00', '-10.00']);
    expect(row(orders.debit, 'pay')).toEqual(['PAYMENT', 'USD', '20.00', '0.15', '19.85']);
    expect(row(orders.short, 'pay')).toEqual(['PAYMENT', 'USD', '49.99', '0.85', '49.14']);
    expect(lines.map((l) => l[2])).not.toContain(orders.voided);
    expect(lines.map((l) => l[2])).not.toContain(orders.missing);
    expect(lines.map((l) => l[2])).not.toContain(orders.other);
    expect(lines.every((l) => l[0] === batch && l[1] === date && /^\d+$/.test(l[4]))).toBe(true);

    const sum = (column: number) => lines.reduce((total, l) => total + cents(l[column]), 0);
    expect(trailers).toHaveLength(1);
    const [, tBatch, tDate, currency, count, gross, fee, net] = trailers[0];
    expect([tBatch, tDate, currency, Number(count)]).toEqual([batch, date, 'USD', lines.length]);
    expect([cents(gross), cents(fee), cents(net)]).toEqual([sum(7), sum(8), sum(9)]);

    // Recorded once: the batch's content, the run's end, and one settlement on each order.
    const streams = await eventsByStream(dataDir);
    expect(streams.get(`settlement:TESTMERCHANT:${batch}`)).toEqual([
      'SettlementBatchClosed',
      'SettlementLinesRecorded',
      'SettlementBatchRecorded',
    ]);
    const settledOn = (order: string) =>
      streams.get(`order:TESTMERCHANT:${order}`)!.filter((t) => t === 'TransactionsSettled').length;
    expect([orders.captured, orders.debit, orders.short].map(settledOn)).toEqual([1, 1, 1]);
    expect([orders.voided, orders.missing].map(settledOn)).toEqual([0, 0]);
    // The other test merchant's batch closed on its own at the cut-off.
    expect(streams.get(`settlement:TESTOTHER:${batch}`)).toEqual([
      'SettlementBatchClosed',
      'SettlementLinesRecorded',
      'SettlementBatchRecorded',
    ]);
  });
});

describe('settlement killed (-9) halfway', () => {
  it('finishes on restart, each order settled once, the same file', async () => {
    const dataDir = await makeDataDir();
    const today = await startGateway(dataDir);
    const count = 300;
    let date = '';
    const paid: string[] = [];
    try {
      const api = merchantClient(today);
      for (let i = 0; i < count; i += 25)
        await Promise.all(
          Array.from({ length: Math.min(25, count - i) }, async () => {
            const order = newOrder();
            const res = await api.put(`/order/${order}/transaction/pay`, payBody('10.00'));
            expect(res.status).toBe(201);
            date = String(res.body.transaction.acquirer.settlementDate);
            paid.push(order);
          }),
        );
    } finally {
      await today.stop();
    }

    // The cut-off closes the batch as the gateway starts a day later: killed once it has settled
    // some of the orders (its progress is logged at debug level every 16 orders).
    const env = {
      GATEWAY_LOG_LEVEL: 'debug',
      PORT: '0',
      HOST: '127.0.0.1',
      GATEWAY_DATA_DIR: dataDir,
      GATEWAY_MERCHANTS_FILE: join(dataDir, 'merchants.json'),
      ...DAY_AHEAD,
    };
    const closing = await startNodeProcess('gateway', MAIN, env, /"settled":64,"of":300,/);
    closing.child.kill('SIGKILL');
    await closing.stop();
    const batch = date.replaceAll('-', '');
    const settledCount = (streams: Map<string, string[]>) =>
      paid.map(
        (o) =>
          streams.get(`order:TESTMERCHANT:${o}`)!.filter((t) => t === 'TransactionsSettled').length,
      );
    const killed = await eventsByStream(dataDir);
    expect(killed.get(`settlement:TESTMERCHANT:${batch}`)?.[0]).toBe('SettlementBatchClosed');
    const settledBeforeRestart = settledCount(killed).filter((n) => n === 1).length;
    expect(settledBeforeRestart).toBeGreaterThanOrEqual(64);
    expect(settledBeforeRestart).toBeLessThan(count);

    const restarted = await startGateway(dataDir, DAY_AHEAD);
    let file: string;
    try {
      const res = await closeBatch(restarted, { merchantId: 'TESTMERCHANT', date });
      expect(res.status).toBe(200);
      file = await res.text();
      expect(await (await closeBatch(restarted, { merchantId: 'TESTMERCHANT', date })).text()).toBe(
        file,
      );
    } finally {
      await restarted.stop();
    }
    expect(parseFile(file).lines).toHaveLength(count);
    expect(parseFile(file).trailers[0][4]).toBe(String(count));
    const streams = await eventsByStream(dataDir);
    expect(settledCount(streams).every((n) => n === 1)).toBe(true);
    expect(streams.get(`settlement:TESTMERCHANT:${batch}`)).toEqual([
      'SettlementBatchClosed',
      'SettlementLinesRecorded',
      'SettlementBatchRecorded',
    ]);
  });
});

describe('settlement on two nodes (KurrentDB protocol stand-in)', () => {
  let standin: KurrentDbStandin;
  beforeAll(async () => {
    standin = await startKurrentDbStandin();
  });
  afterAll(() => standin.stop());

  it('closes a batch once when both nodes close it at the cut-off and by hand at once', async () => {
    const env = {
      GATEWAY_EVENT_STORE: 'kurrentdb',
      KURRENTDB_CONNECTION_STRING: standin.connectionString,
      ...makeKeysFile().env,
    };
    const [dirA, dirB] = [await makeDataDir(), await makeDataDir()];
    const today = await startGateway(dirA, env);
    const paid: string[] = [];
    let date = '';
    try {
      const api = merchantClient(today);
      for (let i = 0; i < 20; i++) {
        const order = newOrder();
        const res = await api.put(`/order/${order}/transaction/pay`, payBody('12.00'));
        expect(res.status).toBe(201);
        date = String(res.body.transaction.acquirer.settlementDate);
        paid.push(order);
      }
    } finally {
      await today.stop();
    }

    const nodes = await Promise.all([
      startGateway(dirA, { ...env, ...DAY_AHEAD }),
      startGateway(dirB, { ...env, ...DAY_AHEAD }),
    ]);
    let files: string[];
    try {
      files = await Promise.all(
        nodes.map(async (node) => {
          const res = await closeBatch(node, { merchantId: 'TESTMERCHANT', date });
          expect(res.status).toBe(200);
          return res.text();
        }),
      );
    } finally {
      await Promise.all(nodes.map((node) => node.stop()));
    }
    expect(files[1]).toBe(files[0]);
    expect(parseFile(files[0]).lines).toHaveLength(20);

    const store = new KurrentDbEventStore({ connectionString: standin.connectionString });
    try {
      const batch = date.replaceAll('-', '');
      const types = async (streamId: string) =>
        (await store.readStream(streamId)).map((e) => e.type);
      expect(await types(`settlement:TESTMERCHANT:${batch}`)).toEqual([
        'SettlementBatchClosed',
        'SettlementLinesRecorded',
        'SettlementBatchRecorded',
      ]);
      for (const order of paid)
        expect(
          (await types(`order:TESTMERCHANT:${order}`)).filter((t) => t === 'TransactionsSettled'),
        ).toHaveLength(1);
    } finally {
      await store.close();
    }
  });
});
