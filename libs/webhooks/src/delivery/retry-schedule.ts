/**
 * Behaviour notes: a failed delivery is retried immediately, then after 5 s, 5 min, 30 min, 2 h,
 * 5 h, 10 h and 10 h; after that it is dead-lettered. So a notification gets at most nine
 * attempts: the first, then one per delay below.
 */
export const DEFAULT_RETRY_DELAYS = '0,5s,5m,30m,2h,5h,10h,10h';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** "250ms", "5s", "5m", "2h" or a bare number of milliseconds; undefined when malformed. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d{1,9})(ms|s|m|h)?$/.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * UNITS[match[2] ?? 'ms'];
}

/** A comma-separated list of durations; undefined when any is malformed or the list is empty. */
export function parseDurations(text: string): number[] | undefined {
  const delays = text.split(',').map(parseDuration);
  return delays.length && delays.every((d) => d !== undefined) ? (delays as number[]) : undefined;
}

export class RetrySchedule {
  constructor(readonly delaysMs: readonly number[]) {}

  /** Attempts a notification gets in one round (the first and every retry). */
  get attemptsPerRound(): number {
    return this.delaysMs.length + 1;
  }

  /**
   * After the `failedInRound`-th failed attempt of a round (1-based): milliseconds to wait
   * before the next attempt, or undefined when the round is over and the delivery is dead.
   */
  delayAfterFailure(failedInRound: number): number | undefined {
    return this.delaysMs[failedInRound - 1];
  }
}
