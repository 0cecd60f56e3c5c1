/**
 * The gateway's one clock port: delays, cut-offs and every recorded time read it. The system
 * clock, or (GATEWAY_CLOCK=manual, tests only) the system clock plus an offset that operators
 * move forward, so a test runs a day of janitor, disputes and settlement in seconds.
 * The offset is this process's own (docs/acquirer.md).
 */
export class GatewayClock {
  private offsetMs = 0;
  private readonly listeners = new Set<() => void>();

  constructor(readonly mode: 'system' | 'manual') {}

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  /** Moves a manual clock forward; whatever waits on time looks again at once. */
  advance(ms: number): Date {
    if (this.mode !== 'manual') throw new Error('Only a manual clock (GATEWAY_CLOCK=manual) moves');
    if (!Number.isSafeInteger(ms) || ms < 0)
      throw new RangeError(`Cannot move the clock by ${ms} ms`);
    this.offsetMs += ms;
    for (const listener of this.listeners) listener();
    return this.now();
  }

  /** Called after each advance; returns the unsubscribe. */
  onAdvance(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
