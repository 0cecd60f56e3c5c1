import type { Lease } from '@gateway/event-store';
import type { GatewayClock } from '../clock/gateway-clock';
import type { Janitor, JanitorLog } from './janitor';

/** On a cluster: the lease that lets one node run the janitor, stepped every `stepMs`. */
export interface JanitorLease {
  readonly lease: Lease;
  readonly stepMs: number;
}

/**
 * Runs the janitor's passes on the clock: every tickMs, and at once when a manual clock moves
 * (so a test that advances a day sees its inquiries run without waiting for a tick). Passes never
 * overlap: a tick during one asks for another after it.
 *
 * On a cluster every node derives the schedule, and only the lease's holder runs what is due. A
 * node takes the lease only when something is due, and hands it back when nothing is: a cluster
 * with nothing to do writes no lease events. The decider's idempotency covers the moment two
 * nodes both think they hold it.
 */
export class JanitorLoop {
  private timer: NodeJS.Timeout | undefined;
  private leaseTimer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private running: Promise<void> | undefined;
  private stepping: Promise<unknown> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly janitor: Pick<Janitor, 'pass' | 'hasDue' | 'close'>,
    private readonly clock: Pick<GatewayClock, 'onAdvance'>,
    private readonly tickMs: number,
    private readonly log: JanitorLog,
    private readonly cluster?: JanitorLease,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.kick(), this.tickMs).unref();
    this.unsubscribe = this.clock.onAdvance(() => this.kick());
    if (this.cluster) {
      const { lease, stepMs } = this.cluster;
      // The holder renews; a standby steps only when it has something to run (leading).
      const renew = () => void (lease.status().role === 'leader' && this.stepLease());
      this.leaseTimer = setInterval(renew, stepMs).unref();
    }
    this.kick();
  }

  /** Asks for a pass now (or right after the one running). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.loop().finally(() => (this.running = undefined));
  }

  /** Resolves once no pass runs (tests, and the end of a stop). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearInterval(this.leaseTimer);
    this.unsubscribe?.();
    await this.idle();
    await this.janitor.close();
    await this.stepping;
    try {
      await this.cluster?.lease.release();
    } catch (error) {
      this.log.warn(
        { err: (error as Error).message },
        'janitor lease not released; it will expire',
      );
    }
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      try {
        const { derived, ran } = await this.janitor.pass(() => this.leading());
        if (ran > 0) this.log.info({ derived, ran }, 'janitor pass');
        const lease = this.cluster?.lease;
        if (lease?.status().role === 'leader' && !this.janitor.hasDue()) await lease.release();
      } catch (error) {
        this.log.warn({ err: (error as Error).message }, 'janitor pass failed; retried next tick');
      }
    } while (this.again && !this.stopped);
  }

  /** Without a cluster, always; on one, once this node holds the lease (taking it if free). */
  private async leading(): Promise<boolean> {
    if (!this.cluster) return true;
    if (this.cluster.lease.status().role !== 'leader') await this.stepLease();
    return this.cluster.lease.status().role === 'leader';
  }

  private stepLease(): Promise<unknown> {
    this.stepping ??= this.cluster!.lease.step()
      .catch((error: Error) => this.log.warn({ err: error.message }, 'janitor lease step failed'))
      .finally(() => (this.stepping = undefined));
    return this.stepping;
  }
}
