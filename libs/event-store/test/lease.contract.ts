import type { EventStore } from '../src';
import { EventStoreLease } from '../src';

export interface LeaseFixture {
  readonly store: EventStore;
  /** A second client of the same store (another node), for every contender but 'a'. */
  readonly other?: EventStore;
  readonly cleanup?: () => Promise<void>;
}

const DURATION = 9_000;
const RENEW = DURATION / 3;

/**
 * The lease's contract, run against each event store adapter: contenders share one fake
 * monotonic clock (each would measure on its own; they only ever compare their own readings).
 */
export function describeLeaseContract(name: string, open: () => Promise<LeaseFixture>): void {
  describe(`EventStoreLease on ${name}`, () => {
    let fixture: LeaseFixture;
    let time: number;
    const contender = (holderId: string, segmentSize?: number) =>
      new EventStoreLease(holderId === 'a' ? fixture.store : (fixture.other ?? fixture.store), {
        name: 'test-lease',
        holderId,
        durationMs: DURATION,
        now: () => time,
        ...(segmentSize ? { segmentSize } : {}),
      });

    beforeEach(async () => {
      time = 1_000;
      fixture = await open();
    });
    afterEach(async () => {
      await fixture.store.close();
      await fixture.other?.close();
      await fixture.cleanup?.();
    });

    it('two contenders at once: exactly one holds it, in term 1', async () => {
      const [a, b] = [contender('a'), contender('b')];
      const roles = await Promise.all([a.step(), b.step()]);
      expect(roles.map((s) => s.role).sort()).toEqual(['leader', 'standby']);
      const winner = roles[0].role === 'leader' ? 'a' : 'b';
      expect(roles.map((s) => s.term)).toContain(1);
      const loser = winner === 'a' ? b : a;
      expect(await loser.step()).toMatchObject({ role: 'standby', term: 1, holder: winner });
    });

    it('renewed every third of the duration, it stays with its holder however long', async () => {
      const [a, b] = [contender('a'), contender('b')];
      await a.step();
      for (let i = 1; i <= 12; i++) {
        time += RENEW;
        expect((await a.step(BigInt(i))).role).toBe('leader');
        expect(await b.step()).toMatchObject({
          role: 'standby',
          holder: 'a',
          checkpoint: BigInt(i),
        });
      }
    });

    it('unrenewed for the duration: a standby takes it, term 2, from the last checkpoint', async () => {
      const [a, b] = [contender('a'), contender('b')];
      await a.step();
      time += RENEW;
      await a.step(7n);
      expect((await b.step()).role).toBe('standby');
      // The holder stops counting itself the holder before any standby can take over, and
      // says how long it has left until then.
      expect(a.status().leaderForMs).toBe((DURATION * 2) / 3);
      time += (DURATION * 2) / 3 - 1;
      expect(a.status()).toMatchObject({ role: 'leader', leaderForMs: 1 });
      time += 1;
      expect(a.status().role).toBe('standby');
      expect(a.status().leaderForMs).toBeUndefined();
      expect((await b.step()).role).toBe('standby');
      time += DURATION / 3 - 1;
      expect((await b.step()).role).toBe('standby');
      time += 1;
      expect(await b.step()).toEqual({
        role: 'leader',
        leaderForMs: 6_000,
        term: 2,
        holder: 'b',
        checkpoint: 7n,
      });
    });

    it('released: a standby takes it at its next step, with the released checkpoint', async () => {
      const [a, b] = [contender('a'), contender('b')];
      await a.step();
      await b.step();
      await a.release(42n);
      expect(a.status().role).toBe('standby');
      expect(await b.step()).toMatchObject({
        role: 'leader',
        term: 2,
        holder: 'b',
        checkpoint: 42n,
      });
    });

    it('a stale holder is fenced: its renewal fails, and it stays standby', async () => {
      const [a, b] = [contender('a'), contender('b')];
      await a.step(1n);
      await b.step();
      time += DURATION; // a paused (a long GC, a frozen VM) past the lease
      expect((await b.step()).role).toBe('leader');
      expect((await a.step(5n)).role).toBe('standby');
      for (let i = 0; i < 3; i++) {
        time += RENEW;
        expect((await b.step(2n)).role).toBe('leader');
        expect(await a.step()).toMatchObject({ role: 'standby', term: 2, holder: 'b' });
      }
      // The fenced renewal's checkpoint went nowhere.
      expect(b.status().checkpoint).toBe(2n);
    });

    it('its own holder again (a restarted consumers thread): taken back at once, in a new term', async () => {
      const [a, b] = [contender('a'), contender('b')];
      await a.step();
      await a.step(3n);
      await b.step();
      const again = contender('a');
      expect(await again.step()).toMatchObject({
        role: 'leader',
        term: 2,
        holder: 'a',
        checkpoint: 3n,
      });
      expect(await b.step()).toMatchObject({ role: 'standby', term: 2 });
    });

    it('a late contender finds the head across many segments and waits a full duration', async () => {
      const a = contender('a', 3);
      for (let i = 0; i < 20; i++) {
        await a.step(BigInt(i));
        time += RENEW;
      }
      const late = contender('late', 3);
      expect(await late.step()).toEqual({ role: 'standby', term: 1, holder: 'a', checkpoint: 19n });
      time += DURATION - 1;
      expect((await late.step()).role).toBe('standby');
      time += 1;
      expect(await late.step()).toMatchObject({ role: 'leader', term: 2, checkpoint: 19n });
      expect((await a.step()).role).toBe('standby');
    });
  });
}
