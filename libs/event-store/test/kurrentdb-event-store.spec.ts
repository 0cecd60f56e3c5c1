import { randomUUID } from 'node:crypto';
import { KurrentDbEventStore } from '../src';
import { describeEventStoreContract, newEvent, take } from './event-store.contract';
import {
  KurrentDbStandin,
  startKurrentDbStandin,
} from '../../../test/support/kurrentdb-standin/standin-server';

// With KURRENTDB_CONNECTION_STRING, the suite runs against that real server, each test in its
// own stream namespace (the server is shared and never emptied). Otherwise it runs against the
// in-process protocol stand-in (test/support/kurrentdb-standin), which is not KurrentDB.
const realServer = process.env.KURRENTDB_CONNECTION_STRING;

describeEventStoreContract(
  realServer ? 'kurrentdb (real server)' : 'kurrentdb (protocol stand-in)',
  async () => {
    if (realServer) {
      const namespace = `contract-${randomUUID()}-`;
      return { store: new KurrentDbEventStore({ connectionString: realServer, namespace }) };
    }
    const standin = await startKurrentDbStandin();
    const store = new KurrentDbEventStore({ connectionString: standin.connectionString });
    const loseEvent = async (streamId: string, revision: number) =>
      standin.log.tamperWithStorage((records) => {
        const lost = records.findIndex((r) => r.streamId === streamId && r.revision === revision);
        records.splice(lost, 1);
      });
    return { store, cleanup: () => standin.stop(), loseEvent };
  },
  { idsCheckedAcrossStreams: false },
);

describe('KurrentDbEventStore on the protocol stand-in', () => {
  let standin: KurrentDbStandin;
  let store: KurrentDbEventStore;

  beforeEach(async () => {
    standin = await startKurrentDbStandin();
    store = new KurrentDbEventStore({
      connectionString: standin.connectionString,
      resubscribe: { initialDelayMs: 10, maxDelayMs: 50 },
    });
  });
  afterEach(async () => {
    await store.close();
    await standin.stop();
  });

  it('resubscribes after a dropped subscription, with no gap or duplicate', async () => {
    for (let i = 0; i < 3; i++) await store.appendToStream(`s${i}`, [newEvent({ i })], 'no_stream');
    const subscription = store.subscribe();
    const before = await take(subscription, 3);
    standin.dropSubscriptions();
    for (let i = 3; i < 6; i++) await store.appendToStream(`s${i}`, [newEvent({ i })], 'no_stream');
    const after = await take(subscription, 3);
    expect([...before, ...after].map((e) => e.data)).toEqual(
      [0, 1, 2, 3, 4, 5].map((i) => ({ i })),
    );
    await subscription.close();
  });

  it('keeps positions as $all commit positions, not event counts', async () => {
    const first = await store.appendToStream(
      's',
      [newEvent({ big: 'x'.repeat(100) })],
      'no_stream',
    );
    const second = await store.appendToStream('s', [newEvent()], 0);
    expect(first.position).toBe(standin.log.at(0)!.position);
    expect(second.position - first.position).toBeGreaterThan(1n);
  });
});
