import { join } from 'node:path';
import { SqliteEventLog, SqliteEventStore } from '../src';
import { newEvent } from './event-store.contract';
import { tempDir } from './support/temp-db';

describe("the SQLite log's data reader (projection rebuilds)", () => {
  let log: SqliteEventLog;
  let remove: () => void;

  beforeAll(async () => {
    const temp = tempDir();
    remove = temp.remove;
    const filename = join(temp.dir, 'events.db');
    const store = await SqliteEventStore.open({ filename });
    // 40 streams of 1-3 events, interleaved, ids of every shape (short, long, non-ASCII).
    const ids = Array.from({ length: 40 }, (_, i) => `order:M${i % 3}:${'x'.repeat(i % 5)}${i}é`);
    ids.push('order:', 'o', 'other:1');
    for (let round = 0; round < 3; round++)
      for (const [i, id] of ids.entries())
        if (round <= i % 3)
          await store.appendToStream(
            id,
            [newEvent({ id, round })],
            round === 0 ? 'no_stream' : round - 1,
          );
    await store.close();
    log = SqliteEventLog.open(filename);
  });
  afterAll(async () => {
    await log.close();
    remove();
  });

  const key = (e: { streamId: string; revision: number; position: bigint }) =>
    `${e.position}:${e.streamId}:${e.revision}`;

  it('reads what readAll reads, without id, metadata or commit time', async () => {
    const options = { after: 3n, maxCount: 50, streamPrefix: 'order:' };
    const full = await log.readAll(options);
    const data = await log.dataReader().readAll(options);
    expect(data).toEqual(
      full.map(({ streamId, revision, position, type, data: d }) => ({
        streamId,
        revision,
        position,
        type,
        data: d,
      })),
    );
    expect(data.length).toBeGreaterThan(40);
  });

  it('splits the log into shards that hold whole streams, together all of it, in log order', async () => {
    const all = await log.dataReader().readAll({ maxCount: 1000, streamPrefix: 'order:' });
    for (const count of [2, 3, 7]) {
      const shards = await Promise.all(
        Array.from({ length: count }, (_, index) =>
          log.dataReader({ index, count }).readAll({ maxCount: 1000, streamPrefix: 'order:' }),
        ),
      );
      expect(shards.flat().map(key).sort()).toEqual(all.map(key).sort());
      for (const shard of shards) {
        const positions = shard.map((e) => e.position);
        expect(positions).toEqual([...positions].sort((a, b) => (a < b ? -1 : 1)));
      }
      const shardOf = new Map<string, number>();
      shards.forEach((shard, index) =>
        shard.forEach((e) => {
          expect(shardOf.get(e.streamId) ?? index).toBe(index);
          shardOf.set(e.streamId, index);
        }),
      );
      // Not all in one: the split spreads the work.
      expect(shards.filter((s) => s.length > 0).length).toBeGreaterThan(1);
    }
  });

  it('pages a shard with after and maxCount like readAll', async () => {
    const shard = log.dataReader({ index: 1, count: 2 });
    const whole = await shard.readAll({ maxCount: 1000 });
    const paged = [];
    for (let after = 0n; ;) {
      const page = await shard.readAll({ after, maxCount: 4 });
      if (page.length === 0) break;
      paged.push(...page);
      after = page[page.length - 1].position;
    }
    expect(paged.map(key)).toEqual(whole.map(key));
  });
});
