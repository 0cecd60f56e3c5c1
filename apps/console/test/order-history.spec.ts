import { orderStreamId } from '@gateway/domain';
import { SqliteEventLog, SqliteEventStore } from '@gateway/event-store';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OrderHistory } from '../src/orders/order-history';

/** The order history over a real events.db, written by the gateway's own store beside it. */
describe("the order history's cache of streams read lately", () => {
  let dir: string;
  let store: SqliteEventStore;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'order-history-'));
    store = await SqliteEventStore.open({ filename: join(dir, 'events.db') });
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const append = (orderId: string, n: number, expected: 'no_stream' | number) =>
    store.appendToStream(
      orderStreamId('M1', orderId),
      Array.from({ length: n }, (_, i) => ({
        eventId: randomUUID(),
        type: 'Step',
        data: { i },
        metadata: {},
      })),
      expected,
    );
  const revisions = (events: { revision: number }[] | undefined) => events?.map((e) => e.revision);

  it('reads a stream read before only from its next revision, and answers it whole', async () => {
    const reads = jest.spyOn(SqliteEventLog.prototype, 'readStream');
    const history = new OrderHistory(dir, { kind: 'sqlite' });
    await append('o-1', 3, 'no_stream');
    expect(revisions(await history.events('M1', 'o-1'))).toEqual([0, 1, 2]);
    await append('o-1', 2, 2);
    expect(revisions(await history.events('M1', 'o-1'))).toEqual([0, 1, 2, 3, 4]);
    expect(revisions(await history.events('M1', 'o-1'))).toEqual([0, 1, 2, 3, 4]);
    expect(await history.events('M1', 'none')).toEqual([]);
    expect(reads.mock.calls.map(([, options]) => options)).toEqual([
      undefined,
      { fromRevision: 3 },
      { fromRevision: 5 },
      undefined,
    ]);
    await history.close();
  });

  it('keeps at most its number of events, dropping the least recently read stream', async () => {
    const reads = jest.spyOn(SqliteEventLog.prototype, 'readStream');
    const history = new OrderHistory(dir, { kind: 'sqlite' }, undefined, 4);
    await append('a', 2, 'no_stream');
    await append('b', 2, 'no_stream');
    await append('c', 5, 'no_stream');
    for (const orderId of ['a', 'b', 'a', 'c', 'b', 'a', 'c']) await history.events('M1', orderId);
    // a and b fit; c (5) is never kept; b then a are read from their next revision.
    const fromStart = reads.mock.calls.map(([streamId, options]) => [
      streamId.split(':').at(-1),
      options?.fromRevision ?? 0,
    ]);
    expect(fromStart).toEqual([
      ['a', 0],
      ['b', 0],
      ['a', 2],
      ['c', 0],
      ['b', 2],
      ['a', 2],
      ['c', 0],
    ]);
    await append('d', 2, 'no_stream');
    await history.events('M1', 'd'); // 6 events with a and b: b, the least recently read, goes
    await history.events('M1', 'a');
    await history.events('M1', 'b');
    expect(reads.mock.calls.slice(-3).map(([, options]) => options?.fromRevision ?? 0)).toEqual([
      0, 2, 0,
    ]);
    await history.close();
  });
});
