import { join } from 'node:path';
import { InMemoryEventStore, KurrentDbEventStore, SqliteEventStore } from '../src';
import { startKurrentDbStandin } from '../../../test/support/kurrentdb-standin/standin-server';
import { describeLeaseContract } from './lease.contract';
import { tempDir } from './support/temp-db';

// One contract, every adapter the lease may run on.
describeLeaseContract('in-memory', async () => ({ store: new InMemoryEventStore() }));

describeLeaseContract('sqlite', async () => {
  const { dir, remove } = tempDir();
  const store = await SqliteEventStore.open({ filename: join(dir, 'events.db') });
  return { store, cleanup: async () => remove() };
});

describeLeaseContract('kurrentdb (protocol stand-in)', async () => {
  const standin = await startKurrentDbStandin();
  const client = () => new KurrentDbEventStore({ connectionString: standin.connectionString });
  return { store: client(), other: client(), cleanup: () => standin.stop() };
});
