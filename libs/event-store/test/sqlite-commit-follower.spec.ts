import { join } from 'node:path';
import { SqliteCommitFollower } from '../src/sqlite/sqlite-commit-follower';
import { SqliteEventStore } from '../src/sqlite/sqlite-event-store';
import { newEvent, take } from './event-store.contract';
import { tempDir } from './support/temp-db';

describe('SqliteCommitFollower (another thread following the embedded store)', () => {
  const temp = tempDir();
  const filename = join(temp.dir, 'events.db');
  let store: SqliteEventStore;
  let follower: SqliteCommitFollower;
  let channel = 0;

  beforeEach(async () => {
    store = await SqliteEventStore.open({ filename });
    const name = `follower-test-${process.pid}-${++channel}`;
    store.tapCommits(name);
    // No polling: what arrives live can only come from the writer's tap (or a read it prompts).
    follower = new SqliteCommitFollower({ filename, channel: name, pollIntervalMs: 3_600_000 });
  });
  afterEach(async () => {
    await follower.close();
    await store.close();
  });
  afterAll(() => temp.remove());

  it('catches up by reading, then takes commits from the writer without reading', async () => {
    await store.appendToStream('order-a', [newEvent({ n: 0 }), newEvent({ n: 1 })], 'any');
    const subscription = follower.subscribe({ after: await store.headPosition() });
    const reads = jest.spyOn(follower, 'readAll');
    // The first pull reads (nothing yet); from then on the subscription is up to date.
    const first = take(subscription, 5);
    await new Promise((resolve) => setTimeout(resolve, 50));
    reads.mockClear();
    const appended = await Promise.all([
      store.appendToStream('order-b', [newEvent({ n: 2 }, 'A', { m: 1 })], 'no_stream'),
      store.appendToStream('order-a', [newEvent({ n: 9 })], 0).catch((e: Error) => e.name),
      store.appendToStream('order-c', [newEvent({ n: 3 }), newEvent({ n: 4 })], 'no_stream'),
      store.appendToStream('order-a', [newEvent({ n: 5 }), newEvent({ n: 6 })], 1),
    ]);
    expect(appended[1]).toBe('WrongExpectedRevisionError'); // refused in the same batch
    const received = await first;
    expect(reads).not.toHaveBeenCalled();
    const stored = (await store.readAll()).slice(2);
    expect(received).toEqual(stored);
    expect(received.map((e) => (e.data as { n: number }).n)).toEqual([2, 3, 4, 5, 6]);
    await subscription.close();
  });

  it('reads what it missed: a subscription behind the writer catches up from the file', async () => {
    for (let i = 0; i < 5; i++)
      await store.appendToStream(`s-${i}`, [newEvent({ i })], 'no_stream');
    const subscription = follower.subscribe({ streamPrefix: 's-' });
    const events = take(subscription, 7);
    await store.appendToStream('s-9', [newEvent({ i: 9 }), newEvent({ i: 10 })], 'no_stream');
    expect((await events).map((e) => (e.data as { i: number }).i)).toEqual([0, 1, 2, 3, 4, 9, 10]);
    await subscription.close();
  });
});
