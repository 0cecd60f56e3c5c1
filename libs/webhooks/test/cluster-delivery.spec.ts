import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryEventStore, KurrentDbEventStore, SqliteEventStore } from '@gateway/event-store';
import { startKurrentDbStandin } from '../../../test/support/kurrentdb-standin/standin-server';
import { ClusterDeliveryStore } from '../src/cluster/cluster-delivery.store';
import { describeClusterDeliveryContract } from './cluster-delivery.contract';
import { eventually } from './support/dispatcher-harness';

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

describe('cluster delivery store polling', () => {
  /** Reads of the schedule streams, held back while `gate` is set (an event store not answering). */
  class GatedStore extends InMemoryEventStore {
    reads = 0;
    gate: Promise<void> | undefined;
    override async readStream(...args: Parameters<InMemoryEventStore['readStream']>) {
      this.reads++;
      await this.gate;
      return super.readStream(...args);
    }
  }

  it('does not queue a read per poll while the event store is slow to answer', async () => {
    const store = new GatedStore();
    const queue = new ClusterDeliveryStore({ store, topic: 't', handoverMs: 0, pollMs: 50 });
    try {
      queue.onAssigned([0]);
      await eventually(() => queue.partitions().length === 1);
      let open!: () => void;
      store.gate = new Promise((done) => (open = done));
      await new Promise((done) => setTimeout(done, 500));
      const readsBefore = store.reads;
      store.gate = undefined;
      open();
      await new Promise((done) => setTimeout(done, 20));
      // The one read held back ends; ten polls' reads are not waiting behind it.
      expect(store.reads - readsBefore).toBeLessThanOrEqual(1);
    } finally {
      await queue.close();
      await store.close();
    }
  });
});
