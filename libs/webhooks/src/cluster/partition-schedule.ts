import {
  WrongExpectedRevisionError,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
} from '@gateway/event-store';
import type { SqliteDeliveryStore } from '../delivery/sqlite-delivery.store';
import { applyToStore, partitionEvent, type PartitionEventData } from './partition-events';

/** The partition was claimed by another dispatcher: this one must not write to it any more. */
export class PartitionLostError extends Error {
  constructor(readonly streamId: string) {
    super(`Another webhook dispatcher owns ${streamId}`);
    this.name = 'PartitionLostError';
  }
}

interface QueuedWrite {
  readonly events: readonly NewEvent[];
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

const HANDOVER_POLL_MS = 100;

/**
 * One Kafka partition's delivery schedule as its owner keeps it: the partition's stream folded
 * into the owner's local SQLite schedule, and every change appended at the expected revision
 * before it is applied there. An append refused for the revision means someone else wrote: the
 * owner reads what was added, applies redelivery requests and tries again, or, finding another
 * dispatcher's claim, has lost the partition (fenced: nothing more of it is written or sent).
 * Writes queued while an append is on its way go together in the next one.
 */
export class PartitionSchedule {
  /** Delivery ids recorded in this partition (de-duplication, and which schedule logs an attempt). */
  readonly ids = new Set<string>();
  /** Attempts in flight for this partition's deliveries. */
  inFlight = 0;
  /** Being handed over: no new attempt starts. */
  releasing = false;
  private revision: ExpectedRevision = 'no_stream';
  /** Who holds the partition as the stream tells it: its last claimant, until it released it. */
  private owner: string | undefined;
  private claimed = false;
  private lostTo: string | undefined;
  private queue: QueuedWrite[] = [];
  private appending = false;
  /** Reads and appends run one at a time: each moves the revision and applies what it saw. */
  private serial: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: EventStore,
    readonly streamId: string,
    private readonly schedule: SqliteDeliveryStore,
    private readonly me: string,
  ) {}

  get lost(): boolean {
    return this.lostTo !== undefined;
  }

  /** Whether this schedule may start attempts. */
  get active(): boolean {
    return this.claimed && !this.lost && !this.releasing;
  }

  /**
   * Folds the stream, waits up to `handoverMs` for the previous owner to release the partition
   * (its attempts in flight logged; a crashed owner never releases), then claims it.
   */
  async claim(handoverMs: number): Promise<void> {
    await this.catchUp();
    const deadline = Date.now() + handoverMs;
    while (this.owner !== undefined && this.owner !== this.me && Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, HANDOVER_POLL_MS));
      await this.catchUp();
    }
    await this.appendFenced([partitionEvent('PartitionClaimed', { owner: this.me })]);
    // Only from here on does another's claim mean this one lost the partition: claims folded
    // from the stream's past (this dispatcher's own earlier ones included) are history.
    this.claimed = true;
  }

  /** Appends events (then applies them to the local schedule); rejects once the partition is lost. */
  write(events: readonly NewEvent[]): Promise<void> {
    if (this.lostTo !== undefined) return Promise.reject(new PartitionLostError(this.streamId));
    return new Promise((resolve, reject) => {
      this.queue.push({ events, resolve, reject });
      // The writes of this turn of the event loop go in one append.
      if (this.queue.length === 1) setImmediate(() => void this.flush());
    });
  }

  /** Picks up what others appended (redelivery requests, a new owner's claim). */
  async poll(): Promise<void> {
    // An append succeeding at the expected revision proves nothing came in meanwhile.
    if (!this.appending) await this.exclusive(() => this.catchUp());
  }

  /** Gives the partition up (after its attempts in flight ended), unless it was taken already. */
  async release(): Promise<void> {
    if (this.lost || !this.claimed) return;
    await this.write([partitionEvent('PartitionReleased', { owner: this.me })]).catch(
      () => undefined,
    );
  }

  private async flush(): Promise<void> {
    if (this.appending || this.queue.length === 0) return;
    this.appending = true;
    const batch = this.queue;
    this.queue = [];
    try {
      await this.exclusive(() => this.appendFenced(batch.flatMap((write) => write.events)));
      batch.forEach((write) => write.resolve());
    } catch (error) {
      batch.forEach((write) => write.reject(error));
    } finally {
      this.appending = false;
    }
    void this.flush();
  }

  /** Runs `task` once the read or append before it has ended (an event applied twice would count twice). */
  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.serial.then(task, task);
    this.serial = run.catch(() => undefined);
    return run;
  }

  private async appendFenced(events: readonly NewEvent[]): Promise<void> {
    for (;;) {
      if (this.lostTo !== undefined) throw new PartitionLostError(this.streamId);
      try {
        const result = await this.store.appendToStream(this.streamId, events, this.revision);
        this.revision = result.nextExpectedRevision;
        await this.apply(result.events);
        return;
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
        await this.catchUp();
      }
    }
  }

  private async catchUp(): Promise<void> {
    const fromRevision = this.revision === 'no_stream' ? 0 : (this.revision as number) + 1;
    const events = await this.store.readStream(this.streamId, { fromRevision });
    if (events.length === 0) return;
    this.revision = events[events.length - 1].revision;
    await this.apply(events);
  }

  /** Applies events in order: the local schedule's writes are queued as they are issued. */
  private async apply(
    events: ReadonlyArray<{ readonly type: string; readonly data: unknown }>,
  ): Promise<void> {
    const writes: Array<Promise<unknown> | undefined> = [];
    for (const event of events) {
      if (event.type === 'PartitionClaimed') {
        const { owner } = event.data as PartitionEventData['PartitionClaimed'];
        this.owner = owner;
        if (owner !== this.me && this.claimed) this.lostTo = owner;
      } else if (event.type === 'PartitionReleased') {
        const { owner } = event.data as PartitionEventData['PartitionReleased'];
        if (owner === this.owner) this.owner = undefined;
      } else if (event.type === 'DeliveryRecorded') {
        this.ids.add((event.data as PartitionEventData['DeliveryRecorded']).delivery.id);
      }
      writes.push(applyToStore(this.schedule, event));
    }
    await Promise.all(writes);
  }
}
