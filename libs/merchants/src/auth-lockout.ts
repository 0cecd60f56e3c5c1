export interface LockoutSettings {
  /** Failures faster than the drain that lock a merchant id or a client address. */
  readonly maxFailures: number;
  /** How long a lock lasts; counts drain by `maxFailures` over the same time. */
  readonly lockoutSeconds: number;
  /** Merchant ids, and client addresses, tracked at most (each). */
  readonly trackedKeys: number;
}

interface Failures {
  /** Failures not yet forgiven, as of `at`: the count drains continuously (a leaky bucket). */
  level: number;
  at: number;
  lockedUntil: number;
}

/** When the table is full, this share of its unlocked entries (the lowest counts) goes at once. */
const EVICTED_SHARE = 0.1;

/**
 * Failed password checks per key (a merchant id or a client address) in a table of bounded size.
 * Each failure adds one to the key's count, which drains at `maxFailures` per period; a failure
 * that brings it above `maxFailures - 1` (that many failures faster than the drain) locks the key
 * for the period, by the end of which the count has drained to nothing.
 *
 * Nothing but time lowers a count. When the table is full, the unlocked entries with the lowest
 * counts are forgotten, a tenth of the table at a time so that the scan is paid once per many
 * new keys; a lock is never forgotten. A table holding nothing but locks takes no new key until
 * the first lock ends, and finds that out without a scan.
 */
class FailureTally {
  private readonly entries = new Map<string, Failures>();
  /** Password checks in progress per key: each may yet fail. Empty most of the time. */
  private readonly checking = new Map<string, number>();
  private readonly drainPerMs: number;
  /** Until then the table holds nothing but locks. */
  private fullOfLocksUntil = 0;

  constructor(
    private readonly maxFailures: number,
    private readonly periodMs: number,
    private readonly capacity: number,
  ) {
    this.drainPerMs = maxFailures / periodMs;
  }

  lockedFor(key: string, now: number): number {
    const entry = this.entries.get(key);
    return entry && entry.lockedUntil > now ? entry.lockedUntil - now : 0;
  }

  /** Whether the checks in progress, should they all fail, would lock the key. */
  spent(key: string, clock: () => number): boolean {
    const checks = this.checking.get(key);
    if (!checks) return false;
    const entry = this.entries.get(key);
    return (entry ? this.levelOf(entry, clock()) : 0) + checks > this.maxFailures - 1;
  }

  begin(key: string): void {
    this.checking.set(key, (this.checking.get(key) ?? 0) + 1);
  }

  end(key: string, refused: boolean, now: number): void {
    const checks = this.checking.get(key)! - 1;
    if (checks) this.checking.set(key, checks);
    else this.checking.delete(key);
    if (refused) this.fail(key, now);
  }

  /** A refusal decided at once, with no check in progress to account for. */
  fail(key: string, now: number): void {
    let entry = this.entries.get(key);
    if (!entry) {
      if (!this.makeRoom(now)) return;
      entry = { level: 0, at: now, lockedUntil: 0 };
      this.entries.set(key, entry);
    }
    entry.level = this.levelOf(entry, now) + 1;
    entry.at = now;
    if (entry.level > this.maxFailures - 1)
      entry.lockedUntil = Math.max(entry.lockedUntil, now + this.periodMs);
  }

  private levelOf(entry: Failures, now: number): number {
    return Math.max(0, entry.level - (now - entry.at) * this.drainPerMs);
  }

  /** False when the table is full of locks. */
  private makeRoom(now: number): boolean {
    if (this.entries.size < this.capacity) return true;
    if (now < this.fullOfLocksUntil) return false;
    // The highest count that goes, found by sorting a typed array natively (no comparator calls).
    const levels = new Float64Array(this.entries.size);
    let unlocked = 0;
    let firstUnlock = Infinity;
    for (const entry of this.entries.values()) {
      if (entry.lockedUntil > now) firstUnlock = Math.min(firstUnlock, entry.lockedUntil);
      else levels[unlocked++] = this.levelOf(entry, now);
    }
    if (!unlocked) {
      this.fullOfLocksUntil = firstUnlock;
      return false;
    }
    let evicted = Math.min(unlocked, Math.max(1, Math.floor(this.capacity * EVICTED_SHARE)));
    const highest = levels.subarray(0, unlocked).sort()[evicted - 1];
    for (const [key, entry] of this.entries) {
      if (entry.lockedUntil > now || this.levelOf(entry, now) > highest) continue;
      this.entries.delete(key);
      if (--evicted === 0) break;
    }
    return true;
  }
}

/**
 * Locks out password guessing, per merchant id (from any address, so a distributed guess is
 * caught) and per client address (so is one address guessing many merchants). Only a password
 * check that refused the password counts; a success clears nothing, since it proves only that
 * one client knows one password, and lets counts drain with time. While a key is locked, every
 * attempt is refused without checking the password, the right one included, so a guesser learns
 * nothing and costs no scrypt. Checks still running count as possible failures, so a burst of
 * concurrent guesses gets no more checks than sequential ones. Merchant ids are counted whether
 * or not they exist (a check of an unknown one costs the same scrypt), so a lockout does not
 * tell which merchants do.
 */
export class AuthLockout {
  private readonly merchants: FailureTally;
  private readonly addresses: FailureTally;
  /**
   * Session ids offered as passwords and refused (session authentication), per client address
   * only: apart from the API password's counts, which they never touch and which never stop them.
   * Per address because a merchant-wide count would let anyone shut every payer's device out of
   * the merchant's sessions; a session id (125 random bits) cannot be guessed anyway, so this
   * bounds the lookups a prober gets, not a real chance of success.
   */
  private readonly sessionAddresses: FailureTally;

  constructor(
    settings: LockoutSettings,
    private readonly clock: () => number = Date.now,
  ) {
    const { maxFailures, lockoutSeconds, trackedKeys } = settings;
    this.merchants = new FailureTally(maxFailures, lockoutSeconds * 1000, trackedKeys);
    this.addresses = new FailureTally(maxFailures, lockoutSeconds * 1000, trackedKeys);
    this.sessionAddresses = new FailureTally(maxFailures, lockoutSeconds * 1000, trackedKeys);
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

  /** False while the checks in progress, by failing, could lock the merchant id or the address. */
  mayCheck(merchantId: string, address: string): boolean {
    return (
      !this.merchants.spent(merchantId, this.clock) && !this.addresses.spent(address, this.clock)
    );
  }

  /** A password check starts (once mayCheck said so, in the same tick); checked() ends it. */
  checking(merchantId: string, address: string): void {
    this.merchants.begin(merchantId);
    this.addresses.begin(address);
  }

  /** The check ended: `refused` when it refused the password (not when it could not run). */
  checked(merchantId: string, address: string, refused: boolean): void {
    const now = this.clock();
    this.merchants.end(merchantId, refused, now);
    this.addresses.end(address, refused, now);
  }

  /** Whole seconds until the address may offer a session id again; 0 when it may now. */
  sessionRetryAfter(address: string): number {
    return Math.ceil(this.sessionAddresses.lockedFor(address, this.clock()) / 1000);
  }

  /** A session id offered as a password named no live session of the merchant. */
  sessionRefused(address: string): void {
    this.sessionAddresses.fail(address, this.clock());
  }
}
