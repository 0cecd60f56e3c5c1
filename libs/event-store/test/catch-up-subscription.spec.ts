import { InMemoryEventStore, type EventStore } from '../src';
import { newEvent } from './event-store.contract';

/**
 * A catch-up over a store that reads synchronously (the embedded one, the in-memory one) must
 * let the thread's event loop turn, or whatever waits for a turn piles up with every event read:
 * at a million events, the consumers thread's heap grew by ~4.9 KB an event until it died
 * (docs/benchmarks.md, "The consumers thread's catch-up at a million events"). The consumer
 * here keeps one setImmediate per event, as the relay's batches() did; what it has
 * waiting at once must not grow with the number of events caught up.
 */
describe('a catch-up subscription over a synchronous store', () => {
  async function mostWaitingDuringCatchUp(events: number): Promise<number> {
    const store: EventStore = new InMemoryEventStore();
    for (let i = 0; i < events; i += 100)
      await store.appendToStream(
        `order:M1:${i}`,
        Array.from({ length: 100 }, () => newEvent()),
        'no_stream',
      );
    const subscription = store.subscribe({ streamPrefix: 'order:' });
    let waiting = 0;
    let most = 0;
    let seen = 0;
    for await (const _event of subscription) {
      waiting++;
      most = Math.max(most, waiting);
      setImmediate(() => waiting--);
      if (++seen === events) break;
    }
    await store.close();
    return most;
  }

  it('holds no more waiting for 4N events than for N: at most a read batch (500)', async () => {
    const small = await mostWaitingDuringCatchUp(2_000);
    const large = await mostWaitingDuringCatchUp(8_000);
    expect(small).toBeLessThanOrEqual(500);
    expect(large).toBeLessThanOrEqual(500);
  });
});
