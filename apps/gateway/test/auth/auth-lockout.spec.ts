import { AuthLockout } from '../../src/auth/auth-lockout';

describe('AuthLockout', () => {
  let now = 1_000_000;
  const clock = () => now;
  const lockout = () => new AuthLockout(3, 60, clock);

  it('locks the merchant id and the address after the set number of failures', () => {
    const limiter = lockout();
    limiter.failed('SHOP', '10.0.0.1');
    limiter.failed('SHOP', '10.0.0.1');
    expect(limiter.retryAfter('SHOP', '10.0.0.1')).toBe(0);
    limiter.failed('SHOP', '10.0.0.1');
    expect(limiter.retryAfter('SHOP', '10.0.0.1')).toBe(60);
    // Either key alone is locked: the merchant from another address, the address for another merchant.
    expect(limiter.retryAfter('SHOP', '10.0.0.2')).toBe(60);
    expect(limiter.retryAfter('OTHER', '10.0.0.1')).toBe(60);
    expect(limiter.retryAfter('OTHER', '10.0.0.2')).toBe(0);
  });

  it('counts down, then lets the merchant try again', () => {
    const limiter = lockout();
    for (let i = 0; i < 3; i++) limiter.failed('SHOP', 'a');
    now += 59_500;
    expect(limiter.retryAfter('SHOP', 'a')).toBe(1);
    now += 500;
    expect(limiter.retryAfter('SHOP', 'a')).toBe(0);
    // A lockout is followed by a fresh count, not an immediate new lockout.
    limiter.failed('SHOP', 'a');
    expect(limiter.retryAfter('SHOP', 'a')).toBe(0);
  });

  it('forgets failures older than the period', () => {
    const limiter = lockout();
    limiter.failed('SHOP', 'a');
    limiter.failed('SHOP', 'a');
    now += 60_000;
    limiter.failed('SHOP', 'a');
    expect(limiter.retryAfter('SHOP', 'a')).toBe(0);
  });

  it('a success clears the counts of the merchant and the address', () => {
    const limiter = lockout();
    limiter.failed('SHOP', 'a');
    limiter.failed('SHOP', 'a');
    limiter.succeeded('SHOP', 'a');
    limiter.failed('SHOP', 'a');
    limiter.failed('SHOP', 'a');
    expect(limiter.retryAfter('SHOP', 'a')).toBe(0);
  });

  it('tracks a bounded number of addresses: a flood of new ones pushes out the oldest', () => {
    const limiter = new AuthLockout(1, 60, clock);
    limiter.failed('SHOP', 'first');
    expect(limiter.retryAfter('NONE', 'first')).toBe(60);
    for (let i = 0; i < 10_000; i++) limiter.failed(`M${i}`, `flood-${i}`);
    expect(limiter.retryAfter('NONE', 'first')).toBe(0);
    expect(limiter.retryAfter('NONE', 'flood-9999')).toBe(60);
  });
});
