import {
  InMemoryEventStore,
  KurrentDbEventStore,
  type EventStore,
  type SqliteWriterStats,
} from '@gateway/event-store';
import { readiness } from '../../src/ops/health';
import { startKurrentDbStandin } from '../../../../test/support/kurrentdb-standin/standin-server';

/** The embedded store's writer as readiness sees it: only its state matters. */
const writer = (state: SqliteWriterStats['state']) =>
  Object.assign(new InMemoryEventStore(), { stats: () => ({ state }) as SqliteWriterStats });

describe('readiness', () => {
  it('is ready while the event store writer is open', async () => {
    expect(await readiness(writer('open'))).toEqual({
      ready: true,
      body: { status: 'UP', checks: { eventStore: 'open' } },
    });
  });

  it.each(['failed', 'closing', 'closed'] as const)(
    'is not ready when the writer is %s',
    async (state) => {
      expect(await readiness(writer(state))).toEqual({
        ready: false,
        body: { status: 'DOWN', checks: { eventStore: state } },
      });
    },
  );

  it('probes a remote store: ready while it answers, not once it is gone', async () => {
    const standin = await startKurrentDbStandin();
    const store: EventStore = new KurrentDbEventStore({
      connectionString: standin.connectionString,
    });
    try {
      expect((await readiness(store)).body.checks.eventStore).toBe('open');
      await standin.stop();
      expect(await readiness(store)).toEqual({
        ready: false,
        body: { status: 'DOWN', checks: { eventStore: 'unreachable' } },
      });
    } finally {
      await store.close();
    }
  });

  it("reports the relay's state without letting a retrying bus make the gateway unready", async () => {
    expect(await readiness(writer('open'), { bus: 'retrying' })).toEqual({
      ready: true,
      body: { status: 'UP', checks: { eventStore: 'open', bus: 'retrying' } },
    });
  });

  it('is not ready while the store cannot write, and says why', async () => {
    const store = Object.assign(new InMemoryEventStore(), {
      stats: () => ({ state: 'unwritable', unwritable: 'SQLITE_FULL' }) as SqliteWriterStats,
    });
    expect(await readiness(store)).toEqual({
      ready: false,
      body: {
        status: 'DOWN',
        checks: { eventStore: 'unwritable', eventStoreError: 'SQLITE_FULL' },
      },
    });
  });

  it('is not ready while every new request would be shed', async () => {
    expect(await readiness(writer('open'), { overloaded: true })).toEqual({
      ready: false,
      body: { status: 'DOWN', checks: { eventStore: 'open', server: 'overloaded' } },
    });
  });

  it('is not ready once shutdown has begun', async () => {
    expect(await readiness(writer('open'), { bus: 'live', draining: true })).toEqual({
      ready: false,
      body: { status: 'DOWN', checks: { eventStore: 'open', bus: 'live', server: 'draining' } },
    });
  });
});
