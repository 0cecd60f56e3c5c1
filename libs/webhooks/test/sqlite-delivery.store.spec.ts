import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteDeliveryStore, type NewDelivery } from '../src';

const delivery = (n: number): NewDelivery => ({
  id: `event-${n}`,
  merchantId: 'TESTSHOP',
  orderId: `order-${n}`,
  streamId: `order-TESTSHOP-order-${n}`,
  revision: 0,
  eventType: 'AuthorizationProcessed',
  transactionId: 't1',
  url: 'https://shop.example/hooks',
  body: '{}',
  committedAt: new Date(0).toISOString(),
});

/** The writes of webhooks.db go through a worker thread; the calling thread only reads. */
describe('SqliteDeliveryStore writes', () => {
  const file = () => join(mkdtempSync(join(tmpdir(), 'deliveries-')), 'webhooks.db');

  it('commits the writes of one turn together, each answered for itself', async () => {
    const store = new SqliteDeliveryStore(file());
    const recorded = await Promise.all([1, 2, 1].map((n) => store.record(delivery(n), 1000)));
    expect(recorded).toEqual([true, true, false]); // the repeated event is recorded once
    expect(store.pendingCount()).toBe(2);
    expect(await store.redeliver('event-9', 2000)).toBeUndefined();
    expect(await store.redeliver('event-1', 2000)).toMatchObject({ id: 'event-1', attempts: 0 });
    await store.close();
  });

  it("opens another process's file read-only: it lists and shows, writes nothing, and needs the file", async () => {
    const path = file();
    const writer = new SqliteDeliveryStore(path);
    await writer.record(delivery(1), 1000);
    const reader = SqliteDeliveryStore.openReadOnly(path);
    expect(reader.list({ limit: 10 }).deliveries.map((d) => d.id)).toEqual(['event-1']);
    expect(reader.get('event-1')).toMatchObject({ status: 'PENDING', attemptLog: [] });
    const asStore = reader as SqliteDeliveryStore;
    await expect(asStore.redeliver('event-1', 2000)).rejects.toThrow(/read-only/);
    await writer.record(delivery(2), 1000); // the writer's later commits are seen
    expect(reader.list({ limit: 10 }).deliveries).toHaveLength(2);
    expect(reader.ofOrder(delivery(2).streamId).map((d) => d.id)).toEqual(['event-2']);
    await reader.close();
    await writer.close();
    expect(() => SqliteDeliveryStore.openReadOnly(file())).toThrow();
  });

  it('leaves the orders it is told to out of the due deliveries', async () => {
    const store = new SqliteDeliveryStore(file());
    await Promise.all([1, 2, 3].map((n) => store.record(delivery(n), 1000)));
    const due = (excluding?: string[]) =>
      store.due('TESTSHOP', 1000, 10, excluding).map((d) => d.id);
    expect(due()).toEqual(['event-1', 'event-2', 'event-3']);
    expect(due([delivery(1).streamId, delivery(3).streamId])).toEqual(['event-2']);
    await store.close();
  });

  it('replaces a writer thread that died, taking the writes queued meanwhile', async () => {
    const store = new SqliteDeliveryStore(file());
    await store.redeliver('no-such-delivery', 1000, 'm'); // the first write starts the thread
    // White box: the thread ends as a crash would end it.
    const writer = (store as unknown as { writer: { worker: { terminate(): Promise<number> } } })
      .writer;
    await writer.worker.terminate();
    expect(await store.record(delivery(7), 1000)).toBe(true);
    expect(store.pendingCount()).toBe(1);
    await store.close();
  });

  it('commits what is queued at close, and takes no write after it', async () => {
    const filename = file();
    const store = new SqliteDeliveryStore(filename);
    const pending = [3, 4, 5].map((n) => store.record(delivery(n), 1000));
    await store.close();
    expect(await Promise.all(pending)).toEqual([true, true, true]);
    const db = new Database(filename, { readonly: true });
    expect(db.prepare('SELECT COUNT(*) FROM webhook_delivery').pluck().get()).toBe(3);
    db.close();
    await expect(store.record(delivery(6), 1000)).rejects.toThrow(/closed/);
  });
});
