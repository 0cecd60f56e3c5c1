import { testEvent } from './events';
import { InProcessOrderEventBus, OrderEventBusClosedError } from '../src';

const retry = { initialMs: 1, maxMs: 5 };

const envelope = (orderId: string, revision: number) => testEvent(orderId, revision);

const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

describe('InProcessOrderEventBus', () => {
  it('publish resolves only after every started handler resolved every envelope', async () => {
    const bus = new InProcessOrderEventBus({ retry });
    const seen: string[][] = [[], []];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await bus.start(async (e) => void seen[0].push(e.eventId));
    await bus.start(async (e) => {
      await gate;
      seen[1].push(e.eventId);
    });
    let published = false;
    const publishing = bus.publish([envelope('a', 0), envelope('b', 0)]).then(() => {
      published = true;
    });
    await tick();
    expect(seen[0].sort()).toEqual(['a-0', 'b-0']);
    expect(published).toBe(false);
    release();
    await publishing;
    expect(seen[1].sort()).toEqual(['a-0', 'b-0']);
  });

  it('keeps one order in order across publishes while other orders proceed', async () => {
    const bus = new InProcessOrderEventBus({ retry });
    const handled: string[] = [];
    await bus.start(async (e) => {
      // Order a's first event is slow: its later events must still wait for it, b must not.
      if (e.eventId === 'a-0') await tick(30);
      handled.push(e.eventId);
    });
    const first = bus.publish([envelope('a', 0)]);
    const second = bus.publish([envelope('a', 1), envelope('b', 0)]);
    await tick(10);
    expect(handled).toEqual(['b-0']);
    await Promise.all([first, second]);
    expect(handled).toEqual(['b-0', 'a-0', 'a-1']);
  });

  it('retries a rejected handler until it resolves, reporting each failure', async () => {
    const failures: unknown[] = [];
    const bus = new InProcessOrderEventBus({ retry, onHandlerError: (e) => failures.push(e) });
    let calls = 0;
    await bus.start(async () => {
      if (++calls < 4) throw new Error(`failure ${calls}`);
    });
    await bus.publish([envelope('a', 0)]);
    expect(calls).toBe(4);
    expect(failures).toHaveLength(3);
  });

  it('resolves at once without consumers, and rejects once closed', async () => {
    const bus = new InProcessOrderEventBus({ retry });
    await expect(bus.publish([envelope('a', 0)])).resolves.toBeUndefined();
    let calls = 0;
    await bus.start(async () => {
      calls++;
      throw new Error('down');
    });
    const publishing = bus.publish([envelope('a', 1)]);
    await tick();
    await bus.close();
    await expect(publishing).rejects.toBeInstanceOf(OrderEventBusClosedError);
    expect(calls).toBeGreaterThan(0);
    await expect(bus.publish([envelope('a', 2)])).rejects.toBeInstanceOf(OrderEventBusClosedError);
    await expect(bus.start(async () => undefined)).rejects.toBeInstanceOf(OrderEventBusClosedError);
  });
});
