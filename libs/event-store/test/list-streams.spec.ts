import { join } from 'node:path';
import { InMemoryEventStore, SqliteEventStore, type EventStore } from '../src';
import { newEvent } from './event-store.contract';
import { tempDir } from './support/temp-db';

/** listStreams, which the gateway's order repository reads once at start (both adapters). */
describe.each([
  ['in-memory', async () => ({ store: new InMemoryEventStore(), cleanup: () => undefined })],
  [
    'sqlite',
    async () => {
      const { dir, remove } = tempDir();
      const store = await SqliteEventStore.open({ filename: join(dir, 'events.db') });
      return { store, cleanup: remove };
    },
  ],
] as [string, () => Promise<{ store: EventStore; cleanup: () => void }>][])(
  'listStreams (%s)',
  (_, open) => {
    it('lists each stream with the prefix once, whatever its length, and no other', async () => {
      const { store, cleanup } = await open();
      try {
        await store.appendToStream('order:M:1', [newEvent({}), newEvent({})], 'no_stream');
        await store.appendToStream('order:M:1', [newEvent({})], 1);
        await store.appendToStream('order:M:2_%', [newEvent({})], 'no_stream');
        await store.appendToStream('session:M:1', [newEvent({})], 'no_stream');
        await store.appendToStream('ORDER:M:3', [newEvent({})], 'no_stream');
        const ids: string[] = [];
        await store.listStreams!('order:', (id) => ids.push(id));
        expect(ids.sort()).toEqual(['order:M:1', 'order:M:2_%']);
      } finally {
        await store.close();
        cleanup();
      }
    });
  },
);
