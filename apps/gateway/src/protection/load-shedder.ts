import type { OnApplicationShutdown } from '@nestjs/common';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

/** The event-loop delay is sampled every RESOLUTION_MS and judged over each WINDOW_MS. */
const RESOLUTION_MS = 10;
const WINDOW_MS = 500;

export type Refusal = 'overloaded' | 'shutting_down';

/**
 * Decides whether the gateway can take a request, once it is read and its client known (see
 * RequestAdmission): not when GATEWAY_MAX_IN_FLIGHT requests are already in progress, nor, while
 * the event loop lags (average delay over the last half second above
 * GATEWAY_MAX_EVENT_LOOP_DELAY), from a client that already has one in progress: the client
 * loading the gateway is shed, one sending a request at a time is not. Once shutdown has begun,
 * new arrivals are refused (shed-load.hook.ts). Refusing early and cheaply keeps latency bounded
 * for the requests taken, instead of queueing until clients time out or memory runs out. The
 * per-request cost is a counter and a comparison; the delay is judged by a timer, off the
 * request path.
 */
export class LoadShedder implements OnApplicationShutdown {
  private inFlight = 0;
  private lagging = false;
  private draining = false;
  private readonly maxInFlight: number;
  private readonly delay?: IntervalHistogram;
  private readonly sampler?: NodeJS.Timeout;

  /** Called once per admitted request when its response is done or its connection closed. */
  readonly release = (): void => {
    this.inFlight--;
  };

  constructor(
    maxInFlight: number,
    private readonly maxEventLoopDelayMs: number,
  ) {
    this.maxInFlight = maxInFlight === 0 ? Infinity : maxInFlight;
    if (maxEventLoopDelayMs > 0) {
      this.delay = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
      this.delay.enable();
      this.sampler = setInterval(() => this.judgeDelay(), WINDOW_MS).unref();
    }
  }

  /**
   * Takes the request (counting it in flight) or refuses it; `holding` is the number of requests
   * its client already has in progress.
   */
  admit(holding = 0): 'overloaded' | undefined {
    if (this.inFlight >= this.maxInFlight || (this.lagging && holding > 0)) return 'overloaded';
    this.inFlight++;
    return undefined;
  }

  get requestsInFlight(): number {
    return this.inFlight;
  }

  /** Every new request would be refused: the gateway is not ready for more. */
  get isFull(): boolean {
    return this.inFlight >= this.maxInFlight;
  }

  /** From now on every new request is refused: shutdown has begun. */
  drain(): void {
    this.draining = true;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  onApplicationShutdown(): void {
    clearInterval(this.sampler);
    this.delay?.disable();
  }

  private judgeDelay(): void {
    const delay = this.delay!;
    // Each sample is the time between two ticks meant to be RESOLUTION_MS apart; no sample at all
    // means the loop was blocked for the whole window.
    this.lagging = delay.count === 0 || delay.mean / 1e6 - RESOLUTION_MS > this.maxEventLoopDelayMs;
    delay.reset();
  }
}
