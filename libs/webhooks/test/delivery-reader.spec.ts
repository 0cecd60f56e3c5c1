import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  InMemoryEventStore,
  KurrentDbEventStore,
  SqliteEventStore,
  type EventStore,
} from '@gateway/event-store';
import { startKurrentDbStandin } from '../../../test/support/kurrentdb-standin/standin-server';
import {
  applyToStore,
  EventStoreDeliveryReader,
  partitionEvent,
  partitionStreamId,
  SqliteDeliveryStore,
  type DeliveryReader,
} from '../src';
import {
  describeDeliveryReaderContract,
  type DeliveryReaderUnderTest,
} from './delivery-reader.contract';

const tempFile = (name: string) => join(mkdtempSync(join(tmpdir(), 'delivery-reader-')), name);

describeDeliveryReaderContract('the SQLite delivery file, opened read-only', async () => {
  const file = tempFile('webhooks.db');
  const writer = new SqliteDeliveryStore(file);
  return {
    write: async (type, data) => void (await applyToStore(writer, { type, data })),
    open: async () => SqliteDeliveryStore.openReadOnly(file),
    seen: async () => undefined, // WAL: a committed write is visible to the next read
    cleanup: () => writer.close(),
  };
});

/** The dispatchers' partition schedules in `store`, folded by a reader that only reads. */
function scheduled(store: EventStore, stop?: () => Promise<void>): DeliveryReaderUnderTest {
  return {
    write: async (type, data, partition) =>
      void (await store.appendToStream(
        partitionStreamId('order-events', partition),
        [partitionEvent(type, data)],
        'any',
      )),
    open: async () => {
      const reader = new EventStoreDeliveryReader(store);
      await reader.caughtUp();
      return reader;
    },
    seen: (reader: DeliveryReader) => (reader as EventStoreDeliveryReader).caughtUp(),
    cleanup: async () => {
      await store.close();
      await stop?.();
    },
  };
}

describeDeliveryReaderContract('the event store in memory', async () =>
  scheduled(new InMemoryEventStore()),
);

describeDeliveryReaderContract('the embedded SQLite event store', async () =>
  scheduled(await SqliteEventStore.open({ filename: tempFile('events.db') })),
);

describeDeliveryReaderContract('KurrentDB (protocol stand-in)', async () => {
  const standin = await startKurrentDbStandin();
  return scheduled(new KurrentDbEventStore({ connectionString: standin.connectionString }), () =>
    standin.stop(),
  );
});

describe('EventStoreDeliveryReader', () => {
  it('only reads: the store holds the same events after it folded them', async () => {
    const store = new InMemoryEventStore();
    const stream = partitionStreamId('order-events', 0);
    await store.appendToStream(
      stream,
      [partitionEvent('PartitionClaimed', { owner: 'd1' })],
      'any',
    );
    const head = await store.headPosition();
    const reader = new EventStoreDeliveryReader(store);
    await reader.caughtUp();
    await reader.close();
    expect(await store.headPosition()).toBe(head);
    expect(await store.readStream(stream)).toHaveLength(1);
    await store.close();
  });

  it('reports a fold stopped by an event it cannot apply, and no longer says it is caught up', async () => {
    const store = new InMemoryEventStore();
    const stream = partitionStreamId('order-events', 0);
    await store.appendToStream(
      stream,
      [{ ...partitionEvent('PartitionClaimed', { owner: 'd1' }), type: 'DeliveryRecorded' }],
      'any',
    );
    const reader = new EventStoreDeliveryReader(store);
    await expect(reader.caughtUp()).rejects.toThrow();
    expect(reader.failure).toBeInstanceOf(Error);
    await reader.close();
    await store.close();
  });
});
