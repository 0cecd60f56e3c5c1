/**
 * Allocation and GC pauses of a server started with `--trace-gc-nvp` (BENCH_NODE_ARGS), read from
 * its stdout. V8 prints one line per collection, per isolate (one per thread running JavaScript):
 * `[pid:0x…]  1234 ms: pause=0.8 … gc=s … allocated=123456 …`, where `allocated` is what was
 * allocated since that isolate's previous collection. Summed between two snapshots it gives what
 * the window allocated, give or take one young generation (a few MB) at each end.
 *
 * The isolates are numbered in the order they first collect. The main thread's comes first: it
 * starts before any worker can, and loading the application collects several times.
 */
export interface IsolateGc {
  readonly collections: number;
  readonly pauseMs: number;
  readonly allocatedBytes: number;
}

export interface GcPerRequest {
  readonly isolate: string;
  readonly collections: number;
  readonly allocatedKiB: number;
  /** Time the isolate's own thread stood still for GC; helper threads' GC work is not in it. */
  readonly pauseMicros: number;
}

const LINE = /^\[\d+:(0x[0-9a-f]+)\][^:]*: pause=([\d.]+) .*?\ballocated=(\d+)/;

export class GcTrace {
  private readonly isolates = new Map<string, IsolateGc>();
  private partial = '';

  /** Takes stdout as it comes; other output (the server's own log) is skipped. */
  feed(chunk: Buffer): void {
    const lines = (this.partial + chunk.toString('latin1')).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) {
      const match = LINE.exec(line);
      if (!match) continue;
      const [, address, pause, allocated] = match;
      const sum = this.isolates.get(address) ?? { collections: 0, pauseMs: 0, allocatedBytes: 0 };
      this.isolates.set(address, {
        collections: sum.collections + 1,
        pauseMs: sum.pauseMs + Number(pause),
        allocatedBytes: sum.allocatedBytes + Number(allocated),
      });
    }
  }

  snapshot(): ReadonlyMap<string, IsolateGc> {
    return new Map(this.isolates);
  }
}

export function gcPerRequest(
  before: ReadonlyMap<string, IsolateGc>,
  after: ReadonlyMap<string, IsolateGc>,
  requests: number,
): GcPerRequest[] {
  const n = Math.max(1, requests);
  return [...after].map(([address, totals], index) => {
    const earlier = before.get(address) ?? { collections: 0, pauseMs: 0, allocatedBytes: 0 };
    return {
      isolate: index === 0 ? 'main' : `isolate-${index + 1}`,
      collections: totals.collections - earlier.collections,
      allocatedKiB: (totals.allocatedBytes - earlier.allocatedBytes) / 1024 / n,
      pauseMicros: ((totals.pauseMs - earlier.pauseMs) * 1000) / n,
    };
  });
}
