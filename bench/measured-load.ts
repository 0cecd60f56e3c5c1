import autocannon from 'autocannon';
import { cpuPerRequest, takeCpuSnapshot, type CpuPerRequest } from './cpu-accounting';
import { gcPerRequest, type GcPerRequest } from './gc-trace';
import type { Server } from './processes';

export const DURATION = Number(process.env.BENCH_DURATION ?? 15);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
export const WARM_UP_SECONDS = 3;

export type Phase = 'warm-up' | 'measured';

export interface LoadSpec {
  readonly name: string;
  readonly authorization: string;
  readonly body: string;
  /** A new path per request (a new order each time); the phase lets a bench tell them apart. */
  readonly path: (phase: Phase) => string;
  /**
   * Work the load leaves queued (e.g. webhook deliveries): awaited after the measured run, and the
   * server's CPU is also reported from the window's start until it resolves (`settled`).
   */
  readonly settle?: (run: {
    readonly created: number;
    readonly startedAt: number;
    readonly endedAt: number;
  }) => Promise<void>;
}

export interface LoadFigures {
  readonly name: string;
  /** Responses completed in the measured window / its length (the CPU's window). */
  readonly requestsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly completed: number;
  readonly created: number;
  readonly non2xx: number;
  readonly errors: number;
  /** Wall clock (ms since the epoch) of the measured window, to match other records against. */
  readonly startedAt: number;
  readonly endedAt: number;
  readonly cpu: CpuPerRequest;
  /** With `settle`: CPU per request from the window's start until the queued work was done. */
  readonly settled?: CpuPerRequest;
  /** Only when the server runs with --trace-gc-nvp. */
  readonly gc?: readonly GcPerRequest[];
}

/**
 * Drives PUTs of one body at a server from this process with autocannon: a warm-up (JIT, caches,
 * the first scrypt check), then DURATION seconds measured at CONNECTIONS connections, with the
 * server's CPU (and GC, when traced) taken over exactly the measured run.
 */
export async function measureLoad(server: Server, spec: LoadSpec): Promise<LoadFigures> {
  const run = (duration: number, phase: Phase) =>
    autocannon({
      url: server.url,
      connections: CONNECTIONS,
      duration,
      requests: [
        {
          method: 'PUT',
          setupRequest: (request) => ({
            ...request,
            path: spec.path(phase),
            body: spec.body,
            headers: { 'content-type': 'application/json', authorization: spec.authorization },
          }),
        },
      ],
    });
  await run(WARM_UP_SECONDS, 'warm-up');
  const pid = server.child.pid!;
  const gcBefore = server.gc?.snapshot();
  const startedAt = Date.now();
  const before = takeCpuSnapshot(pid);
  const result = await run(DURATION, 'measured');
  const after = takeCpuSnapshot(pid);
  const endedAt = Date.now();
  const gcAfter = server.gc?.snapshot();
  const completed = result.requests.total;
  const cpu = cpuPerRequest(before, after, completed);
  let settled: CpuPerRequest | undefined;
  if (spec.settle) {
    await spec.settle({ created: result['2xx'], startedAt, endedAt });
    settled = cpuPerRequest(before, takeCpuSnapshot(pid), completed);
  }
  return {
    name: spec.name,
    requestsPerSecond: completed / cpu.windowSeconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    completed,
    created: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    startedAt,
    endedAt,
    cpu,
    settled,
    gc: gcBefore && gcAfter ? gcPerRequest(gcBefore, gcAfter, completed) : undefined,
  };
}
