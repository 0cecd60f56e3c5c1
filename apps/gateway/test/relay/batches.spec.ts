import type { StoredEvent, Subscription } from '@gateway/event-store';
import { batches } from '../../src/relay/order-event.relay';

const event = (i: number) =>
  ({ streamId: `order:M:o${i}`, revision: 0, position: BigInt(i + 1) }) as StoredEvent;

/** A subscription of `counts[k]` events handed over within microtasks, a timer's wait between. */
function subscription(...counts: number[]): Subscription {
  async function* events() {
    let i = 0;
    for (const [k, count] of counts.entries()) {
      if (k > 0) await new Promise((resolve) => setTimeout(resolve, 5));
      for (let n = 0; n < count; n++) yield event(i++);
    }
  }
  return Object.assign(events(), { close: async () => undefined });
}

async function sizesOf(source: Subscription, size: number): Promise<number[]> {
  const sizes: number[] = [];
  for await (const batch of batches(source, size)) sizes.push(batch.length);
  return sizes;
}

describe('batches()', () => {
  afterEach(() => jest.restoreAllMocks());

  it('takes what is ready up to the size, and a batch ends when the loop turns with none ready', async () => {
    expect(await sizesOf(subscription(5, 3), 100)).toEqual([5, 3]);
    expect(await sizesOf(subscription(7, 0, 2), 3)).toEqual([3, 3, 1, 2]);
  });

  it('asks the event loop once per turn, not once per event: a catch-up that never turns holds one wait', async () => {
    const immediates = jest.spyOn(global, 'setImmediate');
    expect(await sizesOf(subscription(2_000), 300)).toEqual([300, 300, 300, 300, 300, 300, 200]);
    expect(immediates.mock.calls.length).toBeLessThanOrEqual(1);
  });
});
