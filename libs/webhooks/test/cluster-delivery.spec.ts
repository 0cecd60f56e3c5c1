import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryEventStore, KurrentDbEventStore, SqliteEventStore } from '@gateway/event-store';
import { startKurrentDbStandin } from '../../../test/support/kurrentdb-standin/standin-server';
import { describeClusterDeliveryContract } from './cluster-delivery.contract';

describeClusterDeliveryContract('in memory', async () => ({ store: new InMemoryEventStore() }));

describeClusterDeliveryContract('embedded SQLite', async () => ({
  store: await SqliteEventStore.open({
    filename: join(mkdtempSync(join(tmpdir(), 'cluster-')), 'events.db'),
  }),
}));

describeClusterDeliveryContract('KurrentDB (protocol stand-in)', async () => {
  const standin = await startKurrentDbStandin();
  return {
    store: new KurrentDbEventStore({ connectionString: standin.connectionString }),
    cleanup: () => standin.stop(),
  };
});
