/** How many merchant ids, and how many client addresses, are tracked at most. */
const TRACKED_KEYS = 10_000;

interface Failures {
  count: number;
  /** Failures are counted from the first one until this time. */
  countUntil: number;
  lockedUntil: number;
}

/**
 * Failed authentications per key in a map of bounded size: when full, the key least recently
 * failed is forgotten, so a flood of new keys costs memory up to the bound and no further.
 */
class FailureTally {
  private readonly entries = new Map<string, Failures>();

  constructor(
    private readonly maxFailures: number,
    private readonly periodMs: number,
  ) {}

  lockedFor(key: string, now: number): number {
    const entry = this.entries.get(key);
    return entry && entry.lockedUntil > now ? entry.lockedUntil - now : 0;
  }

  fail(key: string, now: number): void {
    let entry = this.entries.get(key);
    if (entry)
      this.entries.delete(key); // re-inserted last: the most recently failed
    else if (this.entries.size >= TRACKED_KEYS)
      this.entries.delete(this.entries.keys().next().value!);
    if (!entry || entry.countUntil <= now)
      entry = { count: 0, countUntil: now + this.periodMs, lockedUntil: entry?.lockedUntil ?? 0 };
    if (++entry.count >= this.maxFailures) {
      entry.lockedUntil = now + this.periodMs;
      entry.count = 0;
      entry.countUntil = now;
    }
    this.entries.set(key, entry);
  }

  clear(key: string): void {
    this.entries.delete(key);
  }
}

/**
 * Locks out guessing: `maxFailures` failed authentications for one merchant id, or from one
 * client address, within `lockoutSeconds` lock that merchant id or address for `lockoutSeconds`.
 * While locked, every attempt is refused without checking the password, the right one included,
 * so a guesser learns nothing and costs no scrypt. A success clears both counts. Merchant ids are
 * counted whether or not they exist, so a lockout does not tell which merchants do.
 */
export class AuthLockout {
  private readonly merchants: FailureTally;
  private readonly addresses: FailureTally;

  constructor(
    maxFailures: number,
    lockoutSeconds: number,
    private readonly clock: () => number = Date.now,
  ) {
    this.merchants = new FailureTally(maxFailures, lockoutSeconds * 1000);
    this.addresses = new FailureTally(maxFailures, lockoutSeconds * 1000);
  }

  /** Whole seconds until the merchant id and the address may both try again; 0 when neither is locked. */
  retryAfter(merchantId: string, address: string): number {
    const now = this.clock();
    const ms = Math.max(
      this.merchants.lockedFor(merchantId, now),
      this.addresses.lockedFor(address, now),
    );
    return Math.ceil(ms / 1000);
  }

  failed(merchantId: string, address: string): void {
    const now = this.clock();
    this.merchants.fail(merchantId, now);
    this.addresses.fail(address, now);
  }

  succeeded(merchantId: string, address: string): void {
    this.merchants.clear(merchantId);
    this.addresses.clear(address);
  }
}
