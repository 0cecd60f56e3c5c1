import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import {
  DuplicateEventIdError,
  SCHEMA_VERSION,
  SqliteEventLog,
  SqliteEventStore,
  WrongExpectedRevisionError,
} from '../src';
import { MIGRATIONS } from '../src/sqlite/schema';
import { describeEventStoreContract, newEvent, take } from './event-store.contract';
import { tempDir } from './support/temp-db';

describeEventStoreContract(
  'sqlite',
  async () => {
    const { dir, remove } = tempDir();
    const filename = join(dir, 'nested', 'events.db');
    const store = await SqliteEventStore.open({ filename });
    return { store, cleanup: async () => remove(), loseEvent: deleteEvent(filename) };
  },
  { commitCount: (store) => (store as SqliteEventStore).stats().batches, feedsSubscriptions: true },
);

describe('SqliteEventStore', () => {
  let dir: string;
  let remove: () => void;
  let filename: string;
  const open = (
    options: {
      busyTimeoutMs?: number;
      pollIntervalMs?: number;
      checkpointIntervalMs?: number;
    } = {},
  ) => SqliteEventStore.open({ filename, ...options });

  beforeEach(() => {
    ({ dir, remove } = tempDir());
    filename = join(dir, 'events.db');
  });
  afterEach(() => remove());

  it('keeps events across close and reopen, and never reuses positions', async () => {
    const first = await open();
    const a = await first.appendToStream(
      'order:M1:1',
      [newEvent({ n: 1 }), newEvent({ n: 2 })],
      'no_stream',
    );
    await first.close();

    const second = await open();
    expect((await second.readStream('order:M1:1')).map((e) => e.data)).toEqual([
      { n: 1 },
      { n: 2 },
    ]);
    expect(await second.headPosition()).toBe(a.position);
    const b = await second.appendToStream('order:M1:1', [newEvent()], a.nextExpectedRevision);
    expect(b).toMatchObject({ nextExpectedRevision: 2, position: a.position + 1n });
    await second.close();
  });

  it('uses WAL, synchronous=FULL on the writer, and records the schema version', async () => {
    const store = await open();
    expect(store.writerPragmas).toEqual({ journalMode: 'wal', synchronous: 2 }); // 2 = FULL
    const raw = new Database(filename, { readonly: true });
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(raw.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    } finally {
      raw.close();
      await store.close();
    }
  });

  it('refuses a database written by a newer schema', async () => {
    const raw = new Database(filename);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    await expect(open()).rejects.toThrow(/newer/);
  });

  it('makes stored events immutable', async () => {
    const store = await open();
    await store.appendToStream('s', [newEvent()], 'no_stream');
    await store.close();
    const raw = new Database(filename);
    try {
      expect(() => raw.prepare("UPDATE events SET type = 'X'").run()).toThrow(/immutable/);
      expect(() => raw.prepare('DELETE FROM events').run()).toThrow(/immutable/);
    } finally {
      raw.close();
    }
  });

  it("keeps each stream's head in a table of its own that only moves forward", async () => {
    const store = await open();
    await store.appendToStream('s', [newEvent(), newEvent()], 'no_stream');
    await store.close();
    const raw = new Database(filename);
    try {
      expect(raw.prepare('SELECT stream_id, revision FROM streams').all()).toEqual([
        { stream_id: 's', revision: 1 },
      ]);
      expect(() => raw.prepare('DELETE FROM streams').run()).toThrow(/never removed/);
      expect(() => raw.prepare('UPDATE streams SET revision = 0').run()).toThrow(/forward/);
    } finally {
      raw.close();
    }
  });

  it('migrates a store of schema 2: heads recorded from the events, reads and appends go on', async () => {
    const raw = new Database(filename);
    raw.exec(MIGRATIONS[0] as string);
    const insert = raw.prepare(
      "INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at) VALUES (?, ?, ?, 'T', ?, '{}', '2026-01-01T00:00:00.000Z')",
    );
    insert.run('a', 0, 'e0', '{"n":0}');
    insert.run('a', 1, 'e1', '{"n":1}');
    insert.run('b', 0, 'e2', '{}');
    insert.run('a', 2, 'e3', '{"n":2}');
    (MIGRATIONS[1] as (db: Database.Database) => void)(raw); // schema 2 hashes them
    raw.pragma('user_version = 2');
    raw.close();

    const migrated = await open();
    expect((await migrated.readStream('a')).map((e) => e.data)).toEqual([
      { n: 0 },
      { n: 1 },
      { n: 2 },
    ]);
    await expect(migrated.appendToStream('a', [newEvent()], 'no_stream')).rejects.toMatchObject({
      actual: 2,
    });
    await expect(migrated.appendToStream('a', [newEvent({ n: 3 })], 2)).resolves.toMatchObject({
      nextExpectedRevision: 3,
    });
    await migrated.close();
    const log = SqliteEventLog.open(filename);
    expect(log.verify().problems).toEqual([]);
    await log.close();
  });

  it('group-commits appends that arrive together, each checked on its own', async () => {
    const store = await open();
    await store.appendToStream('taken', [newEvent()], 'no_stream');
    const before = store.stats();
    const outcomes = await Promise.allSettled([
      store.appendToStream('a', [newEvent()], 'no_stream'),
      store.appendToStream('taken', [newEvent()], 'no_stream'), // conflict
      store.appendToStream('b', [newEvent(), newEvent()], 'no_stream'),
      store.appendToStream('a', [newEvent()], 0), // sees the first append of this batch
    ]);
    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(
      WrongExpectedRevisionError,
    );
    const after = store.stats();
    expect(after.batches - before.batches).toBe(1);
    expect(after.lastBatchAppends).toBe(4);
    expect(after.appendsCommitted - before.appendsCommitted).toBe(3);
    expect(after.eventsCommitted - before.eventsCommitted).toBe(4);
    expect(after.appendsRejected - before.appendsRejected).toBe(1);
    expect(after.lastCommitMs).toBeGreaterThan(0);
    expect((await store.readStream('a')).map((e) => e.revision)).toEqual([0, 1]);
    await store.close();
  });

  it('batches a stream of concurrent appends while a commit is in flight', async () => {
    const store = await open();
    const appends = 400;
    let inFlight = 0;
    let issued = 0;
    // Keep ~50 appends outstanding, issuing a new one whenever one resolves (not all in one tick).
    await new Promise<void>((resolve, reject) => {
      const issue = (): void => {
        if (issued === appends) {
          if (inFlight === 0) resolve();
          return;
        }
        const i = issued++;
        inFlight++;
        store.appendToStream(`order:M1:${i}`, [newEvent({ i })], 'no_stream').then(() => {
          inFlight--;
          issue();
        }, reject);
      };
      for (let k = 0; k < 50; k++) issue();
    });
    const stats = store.stats();
    expect(stats.appendsCommitted).toBe(appends);
    expect(stats.batches).toBeLessThan(appends / 4);
    expect(stats.avgBatchAppends).toBeGreaterThan(4);
    expect(stats.queued).toBe(0);
    await store.close();
  });

  it('sends the next batch once the writer has finished, though the event loop is busy', async () => {
    const store = await open();
    const raw = new Database(filename, { readonly: true });
    const count = raw.prepare('SELECT count(*) FROM events').pluck();
    // Spins without returning to the event loop (as a burst of requests does) until `n` events
    // are committed or a second has passed.
    const spinUntil = (n: number): number => {
      const deadline = Date.now() + 1000;
      while (Date.now() < deadline && (count.get() as number) < n);
      return count.get() as number;
    };
    await store.appendToStream('warm', [newEvent()], 'no_stream');
    const appends = [];
    for (const [i, streamId] of ['a', 'b', 'c'].entries()) {
      // Answers to the earlier appends are unread: the event loop has not turned.
      appends.push(store.appendToStream(streamId, [newEvent()], 'no_stream'));
      await Promise.resolve(); // the batch goes out in a microtask
      expect(spinUntil(i + 2)).toBe(i + 2);
    }
    await Promise.all(appends);
    raw.close();
    await store.close();
  });

  it("parses an append's shared metadata once: its events share the object, frozen", async () => {
    const store = await open();
    const metadata = { merchantId: 'M', time: '2026-11-26T09:00:00.000Z' };
    const shared = await store.appendToStream(
      's',
      [newEvent({}, 'T', metadata), newEvent({}, 'T', metadata), newEvent({}, 'T', { other: 1 })],
      'no_stream',
    );
    const [first, second, third] = shared.events;
    expect(first.metadata).toEqual(metadata);
    expect(second.metadata).toBe(first.metadata);
    expect(Object.isFrozen(first.metadata)).toBe(true);
    expect(third.metadata).toEqual({ other: 1 });
    expect((await store.readStream('s')).map((e) => e.metadata)).toEqual([
      metadata,
      metadata,
      { other: 1 },
    ]);
    await store.close();
  });

  it('hands back the very data objects only when the caller vouches they are plain JSON', async () => {
    const store = await open();
    const data = { amount: 1_000, card: { scheme: 'MASTERCARD' } };
    const copied = await store.appendToStream('s', [newEvent(data)], 'no_stream');
    const kept = await store.appendToStream('s', [newEvent(data)], 0, { dataIsPlainJson: true });
    expect(copied.events[0].data).not.toBe(data);
    expect(copied.events[0].data).toEqual(data);
    expect(kept.events[0].data).toBe(data);
    expect((await store.readStream('s')).map((e) => e.data)).toEqual([data, data]);
    await store.close();
  });

  it('refuses a duplicate id alone when it shares a batch with good appends', async () => {
    const store = await open();
    const known = newEvent();
    await store.appendToStream('taken', [known], 'no_stream');
    const before = store.stats().batches;
    const outcomes = await Promise.allSettled([
      store.appendToStream('a', [newEvent()], 'no_stream'),
      store.appendToStream('b', [newEvent(), known], 'no_stream'),
      store.appendToStream('c', [newEvent(), newEvent()], 'no_stream'),
    ]);
    expect(store.stats().batches - before).toBe(1);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(DuplicateEventIdError);
    expect((await store.readAll()).map((e) => e.streamId)).toEqual(['taken', 'a', 'c', 'c']);
    // In one batch, a refused append leaves its stream's head as the append before it left it.
    const inOneBatch = await Promise.allSettled([
      store.appendToStream('x', [newEvent()], 'no_stream'),
      store.appendToStream('x', [newEvent(), known], 0),
      store.appendToStream('x', [newEvent()], 0),
    ]);
    expect(inOneBatch.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await store.readStream('x')).map((e) => e.revision)).toEqual([0, 1]);
    const log = SqliteEventLog.open(filename);
    expect(log.verify().problems).toEqual([]);
    await log.close();
    await store.close();
  });

  it('reads what another connection wrote before handing a subscription its own commit', async () => {
    const store = await open({ pollIntervalMs: 60_000 });
    const other = await open();
    const subscription = store.subscribe();
    const received = take(subscription, 3);
    await new Promise((resolve) => setTimeout(resolve, 20)); // caught up on the empty store
    await other.appendToStream('theirs', [newEvent(), newEvent()], 'no_stream');
    await store.appendToStream('ours', [newEvent()], 'no_stream');
    expect((await received).map((e) => e.streamId)).toEqual(['theirs', 'theirs', 'ours']);
    await subscription.close();
    await other.close();
    await store.close();
  });

  it('checkpoints the WAL into the database file between batches, not at commit', async () => {
    const store = await open({ checkpointIntervalMs: 300 });
    const empty = statSync(filename).size;
    const data = { padding: 'x'.repeat(2000) };
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.appendToStream(`s${i}`, [newEvent(data), newEvent(data)], 'no_stream'),
      ),
    );
    expect(statSync(filename).size).toBe(empty); // the commits went to the WAL only
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(statSync(filename).size).toBeGreaterThan(empty + 40 * 2000);
    await store.close();
  });

  it('fails only the affected appends on a SQLite error, without leaking event data, then recovers', async () => {
    const store = await open({ busyTimeoutMs: 50 });
    const blocker = new Database(filename);
    blocker.exec('BEGIN IMMEDIATE'); // holds the write lock, as another process could
    const secret = 'PAN-4111111111111111';
    const error = (await store
      .appendToStream('s', [newEvent({ secret }, 'T', { secret })], 'no_stream')
      .catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toMatch(/SQLITE_BUSY/);
    expect(error.message).not.toContain(secret);
    blocker.exec('ROLLBACK');
    blocker.close();
    expect(await store.readStream('s')).toEqual([]);
    await expect(store.appendToStream('s', [newEvent()], 'no_stream')).resolves.toMatchObject({
      nextExpectedRevision: 0,
    });
    await store.close();
  });

  it('rejects pending and later appends when the writer thread dies, instead of hanging', async () => {
    const store = await open();
    const pending = Array.from({ length: 50 }, (_, i) =>
      store.appendToStream(`s${i}`, [newEvent()], 'no_stream'),
    );
    const killed = store.killWriterForTests();
    const outcomes = await Promise.allSettled(pending);
    await killed;
    // None may stay pending; an in-flight batch's outcome is unknown, and the error says so.
    const rejected = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(rejected.length).toBeGreaterThan(0);
    for (const o of rejected)
      expect(o.reason.message).toMatch(/writer exited.*outcome of this append is unknown/);
    await expect(store.appendToStream('x', [newEvent()], 'no_stream')).rejects.toThrow(
      /writer exited/,
    );
    expect(store.stats().state).toBe('failed');
    await store.close();
  });

  it('lets a subscription see commits made by another writer on the same file (polling)', async () => {
    const reader = await open({ pollIntervalMs: 20 });
    const otherProcess = await open();
    const subscription = reader.subscribe();
    const waiting = take(subscription, 1, 5_000);
    await otherProcess.appendToStream('remote', [newEvent({ from: 'elsewhere' })], 'no_stream');
    expect((await waiting)[0].data).toEqual({ from: 'elsewhere' });
    await subscription.close();
    await Promise.all([reader.close(), otherProcess.close()]);
  });

  it('needs a file', async () => {
    await expect(SqliteEventStore.open({ filename: ':memory:' })).rejects.toThrow(/file/);
  });
});

/** Deletes an event behind the store's back (its immutability trigger dropped first). */
function deleteEvent(filename: string) {
  return async (streamId: string, revision: number): Promise<void> => {
    const db = new Database(filename);
    try {
      db.exec('DROP TRIGGER IF EXISTS events_no_delete');
      db.prepare('DELETE FROM events WHERE stream_id = ? AND revision = ?').run(streamId, revision);
    } finally {
      db.close();
    }
  };
}
