import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import {
  EventStoreUnwritableError,
  serveSharedAppend,
  type SharedAppend,
  SqliteEventStore,
  StreamIntegrityError,
  WrongExpectedRevisionError,
} from '../src';
import { describeEventStoreContract, newEvent, take } from './event-store.contract';
import { tempDir } from './support/temp-db';

/** What crosses between processes goes through V8's serializer, as Node's 'advanced' IPC does. */
const acrossProcesses = <T>(value: T): T => deserialize(serialize(value)) as T;

/** A store with a writer (the owner) and one on the same file whose appends go through it. */
async function sharedPair(filename: string) {
  const owner = await SqliteEventStore.open({ filename });
  const sent: SharedAppend[] = [];
  const client = await SqliteEventStore.open({
    filename,
    appendThrough: async (append) => {
      sent.push(append);
      const reply = await serveSharedAppend(
        (request) => owner.appendSerialized(request),
        acrossProcesses(append),
      );
      return acrossProcesses(reply);
    },
  });
  return { owner, client, sent };
}

describeEventStoreContract(
  'sqlite, appending through another store’s writer',
  async () => {
    const { dir, remove } = tempDir();
    const { owner, client } = await sharedPair(join(dir, 'events.db'));
    const cleanup = async () => {
      await client.close();
      await owner.close();
      remove();
    };
    return { store: client, cleanup };
  },
  { feedsSubscriptions: true },
);

describe('SqliteEventStore appending through another store’s writer', () => {
  let dir: string;
  let remove: () => void;
  beforeEach(() => ({ dir, remove } = tempDir()));
  afterEach(() => remove());

  it('commits through the owner, and both see the events and conflict on one stream', async () => {
    const { owner, client, sent } = await sharedPair(join(dir, 'events.db'));
    const ownerFeed = owner.subscribe();
    const a = await client.appendToStream('s', [newEvent({ n: 1 })], 'no_stream');
    expect(sent).toHaveLength(1);
    expect(owner.stats().appendsCommitted).toBe(1);
    expect(await take(ownerFeed, 1)).toMatchObject([
      { eventId: a.events[0].eventId, data: { n: 1 } },
    ]);

    await owner.appendToStream('s', [newEvent({ n: 2 })], a.nextExpectedRevision);
    // The client's copy is one revision behind: its append is refused, the typed conflict says where.
    const stale = client.appendToStream('s', [newEvent({ n: 3 })], a.nextExpectedRevision);
    await expect(stale).rejects.toEqual(new WrongExpectedRevisionError('s', 0, 1));
    await expect(stale).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    expect((await client.readStream('s')).map((e) => e.data)).toEqual([{ n: 1 }, { n: 2 }]);
    await ownerFeed.close();
    await client.close();
    await owner.close();
  });

  it('passes on the refusals as the error classes a caller tells apart', async () => {
    const { owner, client } = await sharedPair(join(dir, 'events.db'));
    const event = newEvent();
    await client.appendToStream('s', [event], 'no_stream');
    await expect(client.appendToStream('t', [event], 'any')).rejects.toMatchObject({
      name: 'DuplicateEventIdError',
      eventId: event.eventId,
    });
    // The writer's state, as the owner's process tells it: appends are refused without asking.
    client.sharedWriterState({ state: 'unwritable', unwritable: 'SQLITE_FULL' });
    expect(client.stats()).toMatchObject({ state: 'unwritable', unwritable: 'SQLITE_FULL' });
    await expect(client.appendToStream('u', [newEvent()], 'no_stream')).rejects.toEqual(
      new EventStoreUnwritableError('SQLITE_FULL'),
    );
    client.sharedWriterState({ state: 'open' });
    await client.appendToStream('u', [newEvent()], 'no_stream');
    await client.close();
    expect(client.stats().state).toBe('closed');
    await owner.close();
  });

  it('answers a damaged stream and an unknown failure as plain data', async () => {
    const damaged = await serveSharedAppend(
      () => Promise.reject(new StreamIntegrityError('s', 'head 4, events end at 2')),
      { streamId: 's', expected: 4, fields: [] },
    );
    expect(damaged).toEqual({
      ok: false,
      refusal: { kind: 'damaged', found: 'head 4, events end at 2' },
    });
    const failed = await serveSharedAppend(() => Promise.reject(new Error('SQLITE_BUSY')), {
      streamId: 's',
      expected: 'any',
      fields: [],
    });
    expect(failed).toEqual({ ok: false, refusal: { kind: 'failed', message: 'SQLITE_BUSY' } });
  });

  it('waits at close for the appends on their way to the owner', async () => {
    const filename = join(dir, 'events.db');
    const owner = await SqliteEventStore.open({ filename });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const client = await SqliteEventStore.open({
      filename,
      appendThrough: async (append) => {
        await held;
        return serveSharedAppend((request) => owner.appendSerialized(request), append);
      },
    });
    const appended = client.appendToStream('s', [newEvent()], 'no_stream');
    let closed = false;
    const closing = client.close().then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closed).toBe(false);
    release();
    await expect(appended).resolves.toMatchObject({ nextExpectedRevision: 0 });
    await closing;
    await owner.close();
  });
});
