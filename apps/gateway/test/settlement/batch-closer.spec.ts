import {
  decide,
  evolveAll,
  initialState,
  orderStreamId,
  type DeciderCommand,
  type OrderEvent,
  type SettleTransactions,
} from '@gateway/domain';
import { InMemoryEventStore, newEventId } from '@gateway/event-store';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedFact } from '../../src/acquirer-facts/acquirer-fact.recorder';
import { BatchCloser } from '../../src/settlement/batch-closer';
import { settlementStreamId } from '../../src/settlement/settlement-batch';
import { SettlementCutoff } from '../../src/settlement/settlement-cutoff';
import { SettlementIndex } from '../../src/settlement/settlement-index';
import { SettlementIndexFollower } from '../../src/settlement/settlement-index.follower';
import { until } from '../../../../test/support/until';
import { authorize, capture, card, pay, settled, voidTx } from './settlement-orders';

/**
 * Closing a batch exactly once: its content recorded first in its own stream, then each order's
 * SETTLE_TRANSACTIONS; a second close, a run killed halfway, or two closers at once record nothing twice.
 */
const DAY = 20261122;
const quiet = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** Stands in for the recorder: a fact already on the order records nothing (the decider's rule). */
class Recorder {
  readonly onOrders = new Map<string, SettleTransactions[]>();
  calls = 0;
  failAfter = Infinity;
  async record(fact: SettleTransactions): Promise<RecordedFact> {
    if (this.calls++ >= this.failAfter) throw new Error('killed');
    const facts = this.onOrders.get(fact.orderId) ?? [];
    this.onOrders.set(fact.orderId, [...facts, fact]);
    return facts.some((f) => f.batch === fact.batch)
      ? ({ kind: 'already-recorded' } as RecordedFact)
      : ({ kind: 'recorded' } as RecordedFact);
  }
  /** Orders and how many distinct batches each recorded. */
  settledOnce(): Record<string, number> {
    return Object.fromEntries(
      [...this.onOrders].map(([order, facts]) => [order, new Set(facts.map((f) => f.batch)).size]),
    );
  }
}

const newEvent = (e: OrderEvent) => ({
  eventId: newEventId(),
  type: e.type,
  data: e.data,
  metadata: {},
});

let store: InMemoryEventStore;
let indexFile: string;
let recorder: Recorder;
let time: Date;

async function placeOrder(merchantId: string, orderId: string, ...commands: DeciderCommand[]) {
  let state = initialState();
  const events: OrderEvent[] = [];
  for (const command of commands) {
    const decided = decide({ ...command, merchantId, orderId } as DeciderCommand, state);
    state = evolveAll(state, decided);
    events.push(...decided);
  }
  await store.appendToStream(orderStreamId(merchantId, orderId), events.map(newEvent), 'no_stream');
}

const captured = (amount: number, batch = DAY) => [
  authorize({
    transactionId: 'a',
    amount,
    outcome: settled(amount, { batch }),
    sourceOfFunds: card(),
  }),
  capture({ transactionId: 'c', amount, outcome: settled(amount, { batch }) }),
];

function closer(index = new SettlementIndex(indexFile, store), linesPerEvent = 1) {
  return new BatchCloser(store, recorder, index, () => time, quiet, linesPerEvent);
}

beforeEach(async () => {
  store = new InMemoryEventStore();
  indexFile = join(mkdtempSync(join(tmpdir(), 'settlement-')), 'settlement-index.db');
  recorder = new Recorder();
  time = new Date('2026-11-23T00:00:01.000Z');
  await placeOrder('TESTM', 'o-1', ...captured(10_000));
  await placeOrder(
    'TESTM',
    'o-2',
    pay({ transactionId: 'p', amount: 20_000, outcome: settled(20_000) }),
  );
  await placeOrder('TESTM', 'o-3', ...captured(30_000, DAY + 1));
  await placeOrder('TESTOTHER', 'o-4', ...captured(40_000));
});

describe('BatchCloser', () => {
  it('records the content, then settles each order of the batch once; closing again records nothing', async () => {
    const first = await closer().close({ merchantId: 'TESTM', batch: DAY });
    expect(first).toMatchObject({
      merchantId: 'TESTM',
      batch: DAY,
      settlementDate: '2026-11-22',
      closedAt: '2026-11-23T00:00:01.000Z',
    });
    expect(first.lines.map((l) => [l.orderId, l.transactionId])).toEqual([
      ['o-1', 'c'],
      ['o-2', 'p'],
    ]);
    expect(recorder.onOrders.get('o-1')).toEqual([
      {
        type: 'SETTLE_TRANSACTIONS',
        merchantId: 'TESTM',
        orderId: 'o-1',
        now: '2026-11-23T00:00:01.000Z',
        batch: DAY,
        settlementDate: '2026-11-22',
        transactions: [{ transactionId: 'c', settledAmount: 10_000, fee: 250 }],
      },
    ]);
    const stream = await store.readStream(settlementStreamId('TESTM', DAY));
    expect(stream.map((e) => e.type)).toEqual([
      'SettlementBatchClosed',
      'SettlementLinesRecorded',
      'SettlementLinesRecorded',
      'SettlementBatchRecorded',
    ]);

    time = new Date('2026-11-25T00:00:00.000Z');
    await placeOrder('TESTM', 'o-late', ...captured(50_000));
    expect(await closer().close({ merchantId: 'TESTM', batch: DAY })).toEqual(first);
    expect(recorder.calls).toBe(2);
    expect(await store.readStream(settlementStreamId('TESTM', DAY))).toHaveLength(4);
  });

  it('works the lines out again as the orders stood at the close when a run was killed before it recorded them all', async () => {
    const append = store.appendToStream.bind(store);
    jest
      .spyOn(store, 'appendToStream')
      .mockImplementationOnce(append) // the content and its first line
      .mockRejectedValueOnce(new Error('killed')); // its second line
    await expect(closer().close({ merchantId: 'TESTM', batch: DAY })).rejects.toThrow('killed');
    // After the close, the payment is voided: the batch holds it all the same.
    const o2 = orderStreamId('TESTM', 'o-2');
    const before = await store.readStream(o2);
    const state = evolveAll(initialState(), before as unknown as OrderEvent[]);
    const voided = decide(
      {
        ...voidTx({ transactionId: 'v', targetTransactionId: 'p' }),
        orderId: 'o-2',
      } as DeciderCommand,
      state,
    );
    await store.appendToStream(o2, voided.map(newEvent), before.at(-1)!.revision);

    const finished = await closer().close({ merchantId: 'TESTM', batch: DAY });
    expect(finished.lines.map((l) => l.transactionId)).toEqual(['c', 'p']);
    expect(recorder.settledOnce()).toEqual({ 'o-1': 1, 'o-2': 1 });
  });

  it('finishes a run killed halfway with the same content and time, each order settled once', async () => {
    recorder.failAfter = 1;
    await expect(closer().close({ merchantId: 'TESTM', batch: DAY })).rejects.toThrow('killed');
    expect(Object.keys(recorder.settledOnce())).toHaveLength(1);

    recorder.failAfter = Infinity;
    time = new Date('2026-11-23T05:00:00.000Z');
    const finished = await closer().close({ merchantId: 'TESTM', batch: DAY });
    expect(finished.closedAt).toBe('2026-11-23T00:00:01.000Z');
    expect(recorder.settledOnce()).toEqual({ 'o-1': 1, 'o-2': 1 });
    expect(recorder.onOrders.get('o-1')!.every((f) => f.now === finished.closedAt)).toBe(true);
  });

  it('lets one of two closers decide the content; the other records that same content', async () => {
    const [a, b] = await Promise.all([
      closer().close({ merchantId: 'TESTM', batch: DAY }),
      closer().close({ merchantId: 'TESTM', batch: DAY }),
    ]);
    expect(a).toEqual(b);
    expect(recorder.settledOnce()).toEqual({ 'o-1': 1, 'o-2': 1 });
    const stream = await store.readStream(settlementStreamId('TESTM', DAY));
    expect(stream.filter((e) => e.type === 'SettlementBatchClosed')).toHaveLength(1);
  });

  it('closes a batch with nothing in it, once', async () => {
    const empty = await closer().close({ merchantId: 'TESTM', batch: 20261101 });
    expect(empty.lines).toEqual([]);
    expect(await store.readStream(settlementStreamId('TESTM', 20261101))).toHaveLength(2);
  });
});

describe('SettlementIndex', () => {
  it('reads on from its checkpoint, also after a restart', async () => {
    const index = new SettlementIndex(indexFile, store);
    await index.catchUp();
    expect(index.ordersOf({ merchantId: 'TESTM', batch: DAY })).toEqual(['o-1', 'o-2']);
    index.close();

    const indexed = await store.headPosition();
    await placeOrder('TESTM', 'o-5', ...captured(5_000));
    const readAll = jest.spyOn(store, 'readAll');
    const reopened = new SettlementIndex(indexFile, store);
    await reopened.catchUp();
    expect(readAll.mock.calls[0][0]?.after).toBe(indexed);
    expect(reopened.ordersOf({ merchantId: 'TESTM', batch: DAY })).toEqual(['o-1', 'o-2', 'o-5']);
    expect(reopened.due(DAY)).toEqual([
      { merchantId: 'TESTM', batch: DAY },
      { merchantId: 'TESTOTHER', batch: DAY },
    ]);
  });
});

describe('SettlementIndexFollower', () => {
  it('indexes order events as they commit, from the checkpoint on', async () => {
    const index = new SettlementIndex(indexFile, store);
    const follower = new SettlementIndexFollower(store, index, (error) => {
      throw error;
    });
    follower.start();
    await until(() => index.ordersOf({ merchantId: 'TESTM', batch: DAY }).length === 2, 'indexed');
    await placeOrder('TESTM', 'o-5', ...captured(5_000));
    await until(
      () => index.ordersOf({ merchantId: 'TESTM', batch: DAY }).length === 3,
      'o-5 indexed',
    );
    expect(index.checkpoint()).toBe(await store.headPosition());
    await follower.stop();
  });
});

describe('SettlementCutoff', () => {
  it('closes the due batches of test merchants at the cut-off, and each once', async () => {
    const index = new SettlementIndex(indexFile, store);
    const closes: unknown[] = [];
    const cutoff = new SettlementCutoff(
      { now: () => time, onAdvance: () => () => undefined },
      { settlementCutoffMs: 60_000, tickMs: 60_000 },
      index,
      { close: async (key) => (closes.push(key), index.markDone(key), {}) as never },
      { find: (id) => ({ test: id.startsWith('TEST') && id !== 'TESTOTHER' }) as never },
      quiet,
    );
    await cutoff.tick(); // 00:00:01, before the 00:01 cut-off
    expect(closes).toEqual([]);

    time = new Date('2026-11-23T00:01:00.000Z');
    await cutoff.tick();
    await cutoff.tick();
    expect(closes).toEqual([{ merchantId: 'TESTM', batch: DAY }]);
    expect(index.due(DAY + 1)).toEqual([{ merchantId: 'TESTM', batch: DAY + 1 }]);
  });
});
