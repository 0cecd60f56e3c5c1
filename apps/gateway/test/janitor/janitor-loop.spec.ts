import type { Lease, LeaseStatus } from '@gateway/event-store';
import { GatewayClock } from '../../src/clock/gateway-clock';
import { JanitorLoop } from '../../src/janitor/janitor-loop';

const quiet = { info: () => undefined, warn: () => undefined };

/** A janitor whose passes the test finishes by hand. */
function heldJanitor() {
  const finishers: (() => void)[] = [];
  return {
    passes: () => finishers.length,
    finish: () => finishers.shift()?.(),
    close: async () => undefined,
    pass: () =>
      new Promise<{ derived: number; ran: number }>((done) =>
        finishers.push(() => done({ derived: 0, ran: 0 })),
      ),
  };
}

const flush = () => new Promise((done) => setImmediate(done));

describe('JanitorLoop', () => {
  it('passes at start and when the manual clock moves; a move during a pass asks for one after', async () => {
    const clock = new GatewayClock('manual');
    const janitor = heldJanitor();
    const loop = new JanitorLoop(janitor, clock, 60_000, quiet);
    loop.start();
    expect(janitor.passes()).toBe(1);
    clock.advance(1000);
    clock.advance(1000);
    await flush();
    expect(janitor.passes()).toBe(1); // never two at once
    janitor.finish();
    await flush();
    expect(janitor.passes()).toBe(1); // the two moves ask for one more pass, not two
    janitor.finish();
    await loop.idle();
    clock.advance(1000);
    expect(janitor.passes()).toBe(1);
    janitor.finish();
    await loop.stop();
    clock.advance(1000);
    expect(janitor.passes()).toBe(0);
  });

  it('on a cluster, passes only while this node holds the lease, and releases it on stop', async () => {
    let role: LeaseStatus['role'] = 'standby';
    const released: number[] = [];
    const lease: Lease = {
      step: async () => ({ role, term: 1 }),
      release: async () => void released.push(1),
      status: () => ({ role, term: 1 }),
    };
    const clock = new GatewayClock('manual');
    const janitor = heldJanitor();
    const loop = new JanitorLoop(janitor, clock, 60_000, quiet, { lease, stepMs: 60_000 });
    loop.start();
    await loop.idle();
    expect(janitor.passes()).toBe(0);
    role = 'leader';
    clock.advance(1000);
    expect(janitor.passes()).toBe(1);
    janitor.finish();
    await loop.stop();
    expect(released).toEqual([1]);
  });
});
