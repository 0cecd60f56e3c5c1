import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import {
  WrongExpectedRevisionError,
  type EventStore,
  type GlobalPosition,
  type StoredEvent,
} from '../event-store.port';
import type { Lease, LeaseStatus } from './lease.port';

export interface EventStoreLeaseOptions {
  /** The lease's streams are `<name>-0`, `<name>-1`, … (segments of segmentSize events). */
  readonly name: string;
  /** This contender, unique per process run (a restarted node is a new contender). */
  readonly holderId: string;
  readonly durationMs: number;
  /** Events per segment (default 100): a starting contender reads one segment, not the history. */
  readonly segmentSize?: number;
  /** Monotonic milliseconds (default performance.now); tests pass their own. */
  readonly now?: () => number;
}

type LeaseEventType = 'LeaseTaken' | 'LeaseRenewed' | 'LeaseReleased';

interface LeaseRecord {
  readonly type: LeaseEventType;
  readonly holder: string;
  readonly term: number;
  readonly checkpoint?: GlobalPosition;
}

/**
 * The lease as events in the store itself: every take, renewal and release is an append at the
 * revision last read (compare-and-set), so of two contenders one wins, and a holder that lost it
 * learns so from its next renewal failing. A standby polls for new events and takes the lease
 * once it has seen none for the lease's duration on its own clock. A holder counts itself the
 * holder for two thirds of the duration after its last successful renewal was sent, so it stops
 * before any standby (which counts from when it saw that renewal) can take over.
 *
 * The events form one logical stream cut into segments: revision n is event n % size of stream
 * `<name>-<n / size>`, the first of a segment appended as 'no_stream' (still one compare-and-set:
 * only one contender can start a segment). A renewal every third of 10 s is ~26,000 events a
 * day; a starting contender finds the last segment by probing (about 2·log2 of the segments)
 * instead of reading them all. Old segments stay (nothing here deletes).
 */
export class EventStoreLease implements Lease {
  private readonly size: number;
  private readonly now: () => number;
  /** Logical revision of the last event seen; -1 before any. */
  private head = -1;
  private located = false;
  private last: LeaseRecord | undefined;
  /** On this clock: when the last change was seen (or this contender started looking). */
  private changedAt: number;
  /** On this clock: when the holder's last successful append was sent; undefined unless holding. */
  private renewedAt: number | undefined;

  constructor(
    private readonly store: Pick<EventStore, 'appendToStream' | 'readStream'>,
    private readonly options: EventStoreLeaseOptions,
  ) {
    this.size = options.segmentSize ?? 100;
    this.now = options.now ?? (() => performance.now());
    this.changedAt = this.now();
  }

  async step(checkpoint?: GlobalPosition): Promise<LeaseStatus> {
    if (this.renewedAt !== undefined && this.last) {
      await this.write('LeaseRenewed', this.last.term, checkpoint);
      return this.status();
    }
    await this.catchUp();
    if (this.free())
      await this.write('LeaseTaken', (this.last?.term ?? 0) + 1, this.last?.checkpoint);
    return this.status();
  }

  async release(checkpoint?: GlobalPosition): Promise<void> {
    if (this.renewedAt === undefined || !this.last) return;
    try {
      await this.write('LeaseReleased', this.last.term, checkpoint);
    } finally {
      this.renewedAt = undefined;
    }
  }

  status(): LeaseStatus {
    const leaderForMs =
      this.renewedAt === undefined
        ? 0
        : this.renewedAt + (this.options.durationMs * 2) / 3 - this.now();
    return {
      ...(leaderForMs > 0 ? { role: 'leader', leaderForMs } : { role: 'standby' }),
      term: this.last?.term ?? 0,
      ...(this.last ? { holder: this.last.holder } : {}),
      ...(this.last?.checkpoint !== undefined ? { checkpoint: this.last.checkpoint } : {}),
    };
  }

  /** Never taken, released, unchanged for the duration, or last written by this contender. */
  private free(): boolean {
    const last = this.last;
    return (
      !last ||
      last.type === 'LeaseReleased' ||
      last.holder === this.options.holderId ||
      this.now() - this.changedAt >= this.options.durationMs
    );
  }

  /** Appends at the next revision expecting the head seen; a conflict means another wrote. */
  private async write(
    type: LeaseEventType,
    term: number,
    checkpoint: GlobalPosition | undefined,
  ): Promise<void> {
    const record: LeaseRecord = { type, holder: this.options.holderId, term, checkpoint };
    const next = this.head + 1;
    const index = next % this.size;
    const sentAt = this.now();
    try {
      await this.store.appendToStream(
        this.segment(Math.floor(next / this.size)),
        [{ eventId: randomUUID(), type, data: toData(record), metadata: {} }],
        index === 0 ? 'no_stream' : index - 1,
      );
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      // Fenced (or beaten to it): read what the other wrote at the next step.
      this.renewedAt = undefined;
      this.changedAt = this.now();
      return;
    }
    this.head = next;
    this.last = record;
    this.changedAt = sentAt;
    this.renewedAt = type === 'LeaseReleased' ? undefined : sentAt;
  }

  /** Reads every event after the head seen (finding the last segment first, once). */
  private async catchUp(): Promise<void> {
    if (!this.located) {
      this.head = (await this.lastSegment()) * this.size - 1;
      this.located = true;
    }
    for (;;) {
      const next = this.head + 1;
      const events = await this.store.readStream(this.segment(Math.floor(next / this.size)), {
        fromRevision: next % this.size,
      });
      if (events.length === 0) return;
      this.head += events.length;
      this.last = fromEvent(events[events.length - 1]);
      this.changedAt = this.now();
      // A segment read to its end: the next may have begun.
      if ((this.head + 1) % this.size !== 0) return;
    }
  }

  /** The highest segment that exists (0 when none does): doubling, then halving. */
  private async lastSegment(): Promise<number> {
    const exists = async (k: number) => (await this.store.readStream(this.segment(k))).length > 0;
    let low = 0;
    let high = 1;
    while (await exists(high)) [low, high] = [high, high * 2];
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (await exists(middle)) low = middle;
      else high = middle;
    }
    return low;
  }

  private segment(k: number): string {
    return `${this.options.name}-${k}`;
  }
}

function toData(record: LeaseRecord): object {
  const { holder, term, checkpoint } = record;
  return { holder, term, checkpoint: checkpoint === undefined ? null : checkpoint.toString() };
}

function fromEvent(event: StoredEvent): LeaseRecord {
  const data = event.data as { holder: string; term: number; checkpoint: string | null };
  return {
    type: event.type as LeaseEventType,
    holder: data.holder,
    term: data.term,
    ...(data.checkpoint === null ? {} : { checkpoint: BigInt(data.checkpoint) }),
  };
}
