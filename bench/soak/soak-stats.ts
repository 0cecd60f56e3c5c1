/** The gateway's resident set and V8 heap in use, MiB, read from its /metrics. */
export interface MemorySample {
  readonly rssMiB: number;
  readonly heapMiB: number;
}

export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Latencies of one interval, kept unsorted until the interval ends. */
export class LatencyWindow {
  private values = new Float64Array(1 << 16);
  private count = 0;
  errors = 0;

  record(ms: number): void {
    if (this.count === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.count++] = ms;
  }

  /** Requests, p50 and p99 of the interval; starts the next one. */
  close(): { requests: number; errors: number; p50: number; p99: number } {
    const sorted = this.values.slice(0, this.count).sort();
    const figures = {
      requests: this.count,
      errors: this.errors,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
    };
    this.count = 0;
    this.errors = 0;
    return figures;
  }
}

/** Allowed growth of memory between the first and the last third of the run. */
export const FLAT_TOLERANCE = 0.1;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Memory is flat when, over the last third of the run, the median of the intervals' lowest
 * readings is at most FLAT_TOLERANCE above the same over the first third, for both the resident
 * set and the heap in use. The lowest reading of an interval (one per second), because the heap
 * saws up and down between collections and its troughs are what stays alive; the median of
 * those, because an interval without a full collection has a higher trough. The caller leaves out
 * the first interval (warm-up).
 */
export function memoryVerdict(lows: readonly MemorySample[]): {
  flat: boolean;
  lines: string[];
} {
  const third = Math.max(1, Math.floor(lows.length / 3));
  const lines: string[] = [];
  let flat = true;
  for (const key of ['rssMiB', 'heapMiB'] as const) {
    const first = median(lows.slice(0, third).map((s) => s[key]));
    const last = median(lows.slice(-third).map((s) => s[key]));
    const growth = (last - first) / first;
    if (growth > FLAT_TOLERANCE) flat = false;
    lines.push(
      `${key === 'rssMiB' ? 'RSS ' : 'heap'}: intervals' lows, median ${first.toFixed(1)} MiB over the first third, ${last.toFixed(1)} MiB over the last (${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)} %, limit +${FLAT_TOLERANCE * 100} %)`,
    );
  }
  return { flat, lines };
}
