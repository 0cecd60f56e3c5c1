import { AuthLockout } from '@gateway/merchants';

describe('AuthLockout', () => {
  let now = 1_000_000;
  const clock = () => now;
  /** Three refused passwords faster than the drain (three per minute: one per 20 s) lock for 60 s. */
  const lockout = (trackedKeys = 10_000, maxFailures = 3) =>
    new AuthLockout({ maxFailures, lockoutSeconds: 60, trackedKeys }, clock);
  const refuse = (limiter: AuthLockout, merchant: string, address: string) => {
    limiter.checking(merchant, address);
    limiter.checked(merchant, address, true);
  };
  const accept = (limiter: AuthLockout, merchant: string, address: string) => {
    limiter.checking(merchant, address);
    limiter.checked(merchant, address, false);
  };

  it('locks the merchant id and the address after the set number of refused passwords', () => {
    const limiter = lockout();
    refuse(limiter, 'SHOP', '10.0.0.1');
    refuse(limiter, 'SHOP', '10.0.0.1');
    expect(limiter.retryAfter('SHOP', '10.0.0.1')).toBe(0);
    refuse(limiter, 'SHOP', '10.0.0.1');
    expect(limiter.retryAfter('SHOP', '10.0.0.1')).toBe(60);
    // Either key alone is locked: the merchant from another address, the address for another merchant.
    expect(limiter.retryAfter('SHOP', '10.0.0.2')).toBe(60);
    expect(limiter.retryAfter('OTHER', '10.0.0.1')).toBe(60);
    expect(limiter.retryAfter('OTHER', '10.0.0.2')).toBe(0);
  });

  it("a success clears nothing: a guesser interleaved with the merchant's own traffic is locked", () => {
    const limiter = lockout();
    for (const guesser of ['10.0.0.7', '10.0.0.8', '10.0.0.9']) {
      accept(limiter, 'SHOP', '10.0.0.1');
      refuse(limiter, 'SHOP', guesser);
      accept(limiter, 'SHOP', guesser);
    }
    expect(limiter.retryAfter('SHOP', '10.0.0.1')).toBe(60);
  });

  it('counts drain with time: failures at the drain rate never lock, faster ones do', () => {
    const limiter = lockout();
    for (let i = 0; i < 20; i++) {
      refuse(limiter, 'SLOW', 'a');
      expect(limiter.retryAfter('SLOW', 'b')).toBe(0);
      now += 20_000;
    }
    // A failure takes 20 s to drain: three within 20 s lock.
    refuse(limiter, 'FAST', 'c');
    now += 19_000;
    refuse(limiter, 'FAST', 'c');
    refuse(limiter, 'FAST', 'c');
    expect(limiter.retryAfter('FAST', 'd')).toBe(60);
  });

  it('counts down, then starts from a drained count', () => {
    const limiter = lockout();
    for (let i = 0; i < 3; i++) refuse(limiter, 'SHOP', 'a');
    now += 59_500;
    expect(limiter.retryAfter('SHOP', 'a')).toBe(1);
    now += 500;
    expect(limiter.retryAfter('SHOP', 'a')).toBe(0);
    refuse(limiter, 'SHOP', 'a');
    refuse(limiter, 'SHOP', 'a');
    expect(limiter.retryAfter('SHOP', 'a')).toBe(0);
  });

  it('counts checks in progress as possible failures: concurrent guesses get no more checks', () => {
    const limiter = lockout();
    refuse(limiter, 'SHOP', 'a');
    limiter.checking('SHOP', 'b');
    expect(limiter.mayCheck('SHOP', 'c')).toBe(true);
    limiter.checking('SHOP', 'c');
    // One failure and two checks running: a third check could be the lock's third failure.
    expect(limiter.mayCheck('SHOP', 'd')).toBe(false);
    expect(limiter.mayCheck('OTHER', 'd')).toBe(true);
    expect(limiter.retryAfter('SHOP', 'd')).toBe(0);
    limiter.checked('SHOP', 'b', false);
    expect(limiter.mayCheck('SHOP', 'd')).toBe(true);
    limiter.checked('SHOP', 'c', true);
    expect(limiter.retryAfter('SHOP', 'd')).toBe(0);
    expect(limiter.mayCheck('SHOP', 'd')).toBe(true);
  });

  it('counts checks in progress per address too', () => {
    const limiter = lockout();
    for (const merchant of ['A', 'B', 'C']) limiter.checking(merchant, 'guesser');
    expect(limiter.mayCheck('D', 'guesser')).toBe(false);
    for (const merchant of ['A', 'B', 'C']) limiter.checked(merchant, 'guesser', true);
    expect(limiter.retryAfter('D', 'guesser')).toBe(60);
  });

  it('a lock survives a flood of new keys: the lowest counts are forgotten first', () => {
    const limiter = lockout(10);
    for (let i = 0; i < 3; i++) refuse(limiter, 'LOCKED', `x${i}`);
    refuse(limiter, 'HALFWAY', 'y1');
    refuse(limiter, 'HALFWAY', 'y2');
    for (let i = 0; i < 1000; i++) refuse(limiter, `made-up-${i}`, `flood-${i}`);
    expect(limiter.retryAfter('LOCKED', 'z')).toBe(60);
    // HALFWAY's two failures outrank the flood's single ones: a third still locks it.
    refuse(limiter, 'HALFWAY', 'y3');
    expect(limiter.retryAfter('HALFWAY', 'z')).toBe(60);
    // The flood's newest keys are tracked (the table keeps taking new ones).
    refuse(limiter, 'made-up-999', 'y4');
    refuse(limiter, 'made-up-999', 'y5');
    expect(limiter.retryAfter('made-up-999', 'z')).toBe(60);
  });

  it('a table full of locks takes no new key until a lock ends, and forgets no lock', () => {
    const limiter = lockout(3, 1);
    for (const merchant of ['A', 'B', 'C']) {
      refuse(limiter, merchant, `from-${merchant}`);
      now += 10_000;
    }
    refuse(limiter, 'D', 'from-D');
    expect(limiter.retryAfter('A', 'z')).toBe(30);
    expect(limiter.retryAfter('C', 'z')).toBe(50);
    expect(limiter.retryAfter('D', 'z')).toBe(0);
    now += 30_000; // A's lock has ended: its entry makes room.
    refuse(limiter, 'D', 'from-D');
    expect(limiter.retryAfter('D', 'z')).toBe(60);
    expect(limiter.retryAfter('B', 'z')).toBe(10);
    expect(limiter.retryAfter('C', 'z')).toBe(20);
  });

  it('counts refused session ids per address, apart from the API password: neither locks the other', () => {
    const limiter = lockout();
    for (let i = 0; i < 2; i++) limiter.sessionRefused('10.0.0.1');
    expect(limiter.sessionRetryAfter('10.0.0.1')).toBe(0);
    limiter.sessionRefused('10.0.0.1');
    expect(limiter.sessionRetryAfter('10.0.0.1')).toBe(60);
    expect(limiter.sessionRetryAfter('10.0.0.2')).toBe(0);
    // The API password's counts saw none of it, and a password lock leaves session ids alone.
    expect(limiter.retryAfter('SHOP', '10.0.0.1')).toBe(0);
    for (let i = 0; i < 3; i++) refuse(limiter, 'SHOP', '10.0.0.3');
    expect(limiter.retryAfter('SHOP', '10.0.0.3')).toBe(60);
    expect(limiter.sessionRetryAfter('10.0.0.3')).toBe(0);
    // Session-id counts drain like the others.
    now += 60_000;
    expect(limiter.sessionRetryAfter('10.0.0.1')).toBe(0);
  });
});
