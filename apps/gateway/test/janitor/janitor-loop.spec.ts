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
    hasDue: () => false,
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

  it('on a cluster, takes the lease only when something is due, and hands it back when nothing is', async () => {
    const log: string[] = [];
    let role: LeaseStatus['role'] = 'standby';
    let free = false;
    const lease: Lease = {
      step: async () => {
        log.push('step');
        if (free) role = 'leader';
        return { role, term: 1 };
      },
      release: async () => {
        log.push('release');
        role = 'standby';
      },
      status: () => ({ role, term: 1 }),
    };
    let due = false;
    const janitor = {
      pass: async (mayRun: () => Promise<boolean>) => {
        const ran = due && (await mayRun()) ? 1 : 0;
        if (ran) log.push('ran');
        return { derived: 0, ran };
      },
      hasDue: () => due,
      close: async () => undefined,
    };
    const clock = new GatewayClock('manual');
    const loop = new JanitorLoop(janitor, clock, 60_000, quiet, { lease, stepMs: 60_000 });
    loop.start();
    await loop.idle();
    expect(log).toEqual([]); // nothing due: the lease is left alone
    due = true;
    clock.advance(1000);
    await loop.idle();
    expect(log).toEqual(['step']); // another holds it: this node runs nothing
    free = true;
    clock.advance(1000);
    await loop.idle();
    expect(log).toEqual(['step', 'step', 'ran']);
    due = false;
    clock.advance(1000);
    await loop.idle();
    expect(log).toEqual(['step', 'step', 'ran', 'release']);
    await loop.stop();
  });
});
