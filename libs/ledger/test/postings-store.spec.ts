import { ACCOUNTS, type Entry } from '@gateway/accounting';
import { orderStreamId } from '@gateway/domain';
import { InMemoryEventStore } from '@gateway/event-store';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  at,
  authorize,
  capture,
  created,
  refund,
} from '../../../libs/accounting/test/postings.fixtures';
import { catchUp } from '../src/postings/catch-up';
import { PostingsStore } from '../src/postings/postings-store';

const { payerHolds, holdsPending, acquirerReceivable, merchantPayable } = ACCOUNTS;

let dir: string;
let store: PostingsStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'postings-'));
  store = PostingsStore.open(join(dir, 'ledger.db'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** An entry at `time` moving `amount` from merchant_payable to acquirer_receivable. */
function entry(position: number, time: string, amount: number): Entry {
  return {
    entryId: `${position}/0`,
    time,
    merchantId: 'M1',
    currency: 'USD',
    orderId: `o-${position}`,
    eventType: 'CaptureProcessed',
    lines: [
      { account: acquirerReceivable, debit: amount },
      { account: merchantPayable, credit: amount },
    ],
  };
}

const receivable = (asOf?: string) =>
  store.balances(asOf === undefined ? {} : { asOf }).find((b) => b.account === acquirerReceivable)
    ?.balance;

describe('postings store', () => {
  it('gives balances as of any time, exactly: hours before summed, the lines of that hour up to the time', () => {
    store.append(
      [
        entry(1, '2026-11-24T23:59:59.999Z', 1_000),
        entry(2, '2026-11-25T10:00:00.000Z', 20_000),
        entry(3, '2026-11-25T10:00:00.001Z', 300_000),
        entry(4, '2026-11-26T00:00:00.000Z', 4_000_000),
      ],
      undefined,
      4n,
    );
    expect(receivable('2026-11-24T23:59:59.998Z')).toBeUndefined();
    expect(receivable('2026-11-24T23:59:59.999Z')).toBe(1_000);
    expect(receivable('2026-11-25T10:00:00.000Z')).toBe(21_000);
    expect(receivable('2026-11-25T23:59:59.999Z')).toBe(321_000);
    expect(receivable('2026-11-26T00:00:00.000Z')).toBe(4_321_000);
    expect(receivable()).toBe(4_321_000);
    expect(store.balances({ merchantId: 'M2' })).toEqual([]);
  });

  it("counts an entry posted after later-dated ones in its own hour: the log is not in the facts' time order", () => {
    store.append(
      [entry(1, '2026-11-25T10:30:00.000Z', 1_000), entry(2, '2026-11-25T12:00:00.000Z', 20_000)],
      undefined,
      2n,
    );
    // A settlement finished after a restart, dated by its batch's close: earlier than both.
    store.append([entry(3, '2026-11-25T09:15:00.000Z', 300_000)], 2n, 3n);
    expect(receivable('2026-11-25T09:14:59.999Z')).toBeUndefined();
    expect(receivable('2026-11-25T09:15:00.000Z')).toBe(300_000);
    expect(receivable('2026-11-25T10:59:59.999Z')).toBe(301_000);
    expect(receivable('2026-11-25T11:00:00.000Z')).toBe(301_000);
    expect(receivable('2026-11-25T12:00:00.000Z')).toBe(321_000);
  });

  it("sums hours, minutes and seconds before the time, then its own second's lines: exact inside a busy hour", () => {
    // Entries across hour, minute, second and millisecond edges, in two batches.
    const times = [
      '2026-11-25T09:59:59.999Z',
      '2026-11-25T10:00:00.000Z',
      '2026-11-25T10:00:00.500Z',
      '2026-11-25T10:00:59.999Z',
      '2026-11-25T10:01:00.000Z',
      '2026-11-25T10:01:30.250Z',
      '2026-11-25T10:01:30.251Z',
      '2026-11-25T10:59:59.999Z',
      '2026-11-25T11:00:00.000Z',
    ];
    const entries = times.map((time, i) => entry(i + 1, time, 10 ** i));
    store.append(entries.slice(0, 4), undefined, 4n);
    store.append(entries.slice(4), 4n, BigInt(times.length));
    // What the lines recorded at or before the time add up to, summed one by one.
    const upTo = (asOf: string) =>
      entries
        .filter((e) => e.time <= asOf)
        .reduce((sum, e) => sum + ('debit' in e.lines[0] ? e.lines[0].debit : 0), 0) || undefined;
    const probes = times.flatMap((t) => {
      const ms = Date.parse(t);
      return [ms - 1, ms, ms + 1].map((m) => new Date(m).toISOString());
    });
    for (const asOf of probes) expect([asOf, receivable(asOf)]).toEqual([asOf, upTo(asOf)]);
  });

  it('moves the checkpoint with the entries, once: a second writer from the same place records nothing', () => {
    expect(store.checkpoint()).toBeUndefined();
    expect(store.append([entry(1, '2026-11-25T10:00:00.000Z', 1_000)], undefined, 5n)).toBe(true);
    expect(store.append([entry(1, '2026-11-25T10:00:00.000Z', 1_000)], undefined, 5n)).toBe(false);
    expect(store.checkpoint()).toBe(5n);
    expect(receivable()).toBe(1_000);
    expect(store.entriesBetween(undefined, 5n)).toEqual([
      entry(1, '2026-11-25T10:00:00.000Z', 1_000),
    ]);
  });

  it('names the first entry whose lines do not sum to zero', () => {
    const broken = {
      ...entry(2, '2026-11-25T10:00:00.000Z', 5),
      lines: [{ account: acquirerReceivable, debit: 5 }],
    };
    store.append([entry(1, '2026-11-25T09:00:00.000Z', 1), broken], undefined, 2n);
    expect(store.firstUnbalanced('2026-11-25T09:30:00.000Z')).toBeUndefined();
    expect(store.firstUnbalanced('2026-11-25T10:00:00.000Z')).toEqual({
      entryId: '2/0',
      currency: 'USD',
      imbalance: 5,
    });
  });
});

describe('catch-up from the event log', () => {
  const stream = orderStreamId('M1', 'o-1');
  const append = (log: InMemoryEventStore, events: readonly { type: string; data: unknown }[]) =>
    log.appendToStream(
      stream,
      events.map((e, i) => ({ ...e, eventId: `${e.type}-${i}-${Math.random()}`, metadata: {} })),
      'any',
    );

  it('posts each event once, resuming at its checkpoint, folding an order it forgot again', async () => {
    const log = new InMemoryEventStore();
    await append(log, [created, authorize('a1', 100_000)]);
    await log.appendToStream(
      'settlement:M1:20261126',
      [{ eventId: 'x', type: 'Other', data: {}, metadata: {} }],
      'any',
    );
    expect(await catchUp(log, store)).toBe(2);
    // Dated by the gateway's time of the authorisation (at(1)), not when the store committed it.
    expect(store.balances({ asOf: at(1) }).map((b) => [b.account, b.balance])).toEqual([
      [holdsPending, -100_000],
      [payerHolds, 100_000],
    ]);
    expect(store.balances({ asOf: at(0) })).toEqual([]);
    await append(log, [capture('c1', 60_000), refund('r1', 10_000)]);
    // A fresh store object: nothing remembered but the checkpoint, so the order is folded again.
    store.close();
    store = PostingsStore.open(join(dir, 'ledger.db'));
    expect(await catchUp(log, store)).toBe(2);
    expect(await catchUp(log, store)).toBe(0);
    const balances = Object.fromEntries(store.balances().map((b) => [b.account, b.balance]));
    expect(balances).toEqual({
      [payerHolds]: 40_000,
      [holdsPending]: -40_000,
      [acquirerReceivable]: 50_000,
      [merchantPayable]: -50_000,
    });
    expect(store.firstUnbalanced('9999-12-31T00:00:00.000Z')).toBeUndefined();
  });

  it('starts over on another log: its first order event is not the one the entries came from', async () => {
    const first = new InMemoryEventStore();
    await append(first, [created, authorize('a1', 100_000), capture('c1', 60_000)]);
    await catchUp(first, store);
    const other = new InMemoryEventStore();
    await append(other, [created, authorize('a1', 5_000)]);
    expect(await catchUp(other, store)).toBe(2);
    expect(store.balances().map((b) => [b.account, b.balance])).toEqual([
      [holdsPending, -5_000],
      [payerHolds, 5_000],
    ]);
  });
});
