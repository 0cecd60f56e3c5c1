import { DONE, PullSubscription } from './pull-subscription';
import type {
  GlobalPosition,
  ReadAllOptions,
  StoredEvent,
  SubscribeOptions,
  Subscription,
} from './event-store.port';

/** A commit made through the store, with what it committed. */
export interface CommitNotice {
  /** The log's last position before the commit (0n: empty): nothing lies between it and `events`. */
  readonly before: GlobalPosition;
  /** Every event committed, in position order. */
  readonly events: readonly StoredEvent[];
}

/** What a subscription needs from its store. */
export interface SubscriptionSource {
  readAll(options: ReadAllOptions): Promise<StoredEvent[]>;
  headPosition(): Promise<GlobalPosition | undefined>;
  /** Calls `listener` after each commit made through this store; returns the unregister function. */
  onCommit(listener: (commit: CommitNotice) => void): () => void;
}

export interface SubscriptionTuning {
  readonly batchSize: number;
  /** Re-read this often even without a local commit (sees other processes' writes); undefined: never. */
  readonly pollIntervalMs?: number;
}

/**
 * Catch-up then live, with one loop: read a batch after the cursor; when nothing is left,
 * sleep until a commit notification, a poll tick or close(). Reading only when the buffer is
 * empty gives back-pressure; the cursor only moves forward, so there is no gap or duplicate
 * at the catch-up/live boundary (there is no boundary: live is just catch-up with a short batch).
 *
 * A subscription that has seen everything up to a commit takes that commit's events as the
 * store hands them over, without reading (nothing else can lie between); one that is behind,
 * reading, or holding a full buffer reads from the store as before.
 */
export class CatchUpSubscription extends PullSubscription {
  private cursor: GlobalPosition | undefined;
  private readonly prefix: string | undefined;
  private buffer: StoredEvent[] = [];
  private closed = false;
  /** Something may be there to read: set by a commit not taken (also mid-read), a poll tick, a full batch. */
  private dirty = true;
  private filling = false;
  /** The last read filled a batch: the next one lets the event loop turn first. */
  private catchingUp = false;
  private wake: (() => void) | undefined;
  private readonly unregister: () => void;

  constructor(
    private readonly source: SubscriptionSource,
    options: SubscribeOptions,
    private readonly tuning: SubscriptionTuning,
    private readonly onClosed?: (subscription: CatchUpSubscription) => void,
  ) {
    super();
    this.cursor = options.after;
    this.prefix = options.streamPrefix;
    this.unregister = source.onCommit((commit) => {
      if (!this.take(commit)) this.dirty = true;
      this.wake?.();
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.buffer = [];
    this.unregister();
    this.wake?.();
    this.onClosed?.(this);
  }

  protected async pull(): Promise<IteratorResult<StoredEvent>> {
    for (;;) {
      if (this.closed) return DONE;
      const event = this.buffer.shift();
      if (event) return { done: false, value: event };
      try {
        // Read only when told something may be there: a commit not taken, a poll tick, a full batch.
        if (!this.dirty || !(await this.fill())) await this.sleep();
      } catch (error) {
        // The store closed mid-read (it closes its subscriptions first): end, don't throw.
        if (this.closed) return DONE;
        throw error;
      }
    }
  }

  /** Takes a commit's events when they follow the cursor directly; false: read them instead. */
  private take(commit: CommitNotice): boolean {
    if (this.closed || this.filling || (this.cursor ?? 0n) !== commit.before) return false;
    // Only now: a notice may build its events when first asked (SqliteCommitFollower).
    const { events } = commit;
    if (this.buffer.length + events.length > this.tuning.batchSize) return false; // back-pressure
    for (const event of events)
      if (this.prefix === undefined || event.streamId.startsWith(this.prefix))
        this.buffer.push(event);
    if (events.length > 0) this.cursor = events[events.length - 1].position;
    return true;
  }

  private async fill(): Promise<boolean> {
    this.filling = true;
    try {
      return await this.read();
    } finally {
      this.filling = false;
    }
  }

  private async read(): Promise<boolean> {
    this.dirty = false;
    // Catching up (the last read was a full batch), a turn of the event loop before each read:
    // the embedded store reads synchronously, so a catch-up would otherwise run as one chain of
    // microtasks, starving the thread's timers, immediates and messages; what those hold (a
    // consumer's setImmediate per event, say) would pile up until the catch-up ends
    // (docs/benchmarks.md, "The consumers thread's catch-up at a million events").
    if (this.catchingUp) {
      await new Promise((resolve) => setImmediate(resolve));
      if (this.closed) return false;
    }
    const { batchSize } = this.tuning;
    // With a filter, remember the head read *before* the batch: a short batch proves nothing
    // matching lies at or below it, so the next read can skip the unmatched tail.
    const head = this.prefix === undefined ? undefined : await this.source.headPosition();
    if (this.closed) return false;
    const events = await this.source.readAll({
      after: this.cursor,
      maxCount: batchSize,
      streamPrefix: this.prefix,
    });
    if (this.closed) return false;
    if (events.length > 0) this.cursor = events[events.length - 1].position;
    if (
      events.length < batchSize &&
      head !== undefined &&
      (this.cursor === undefined || head > this.cursor)
    ) {
      this.cursor = head;
    }
    this.buffer = events;
    this.catchingUp = events.length === batchSize;
    if (this.catchingUp) this.dirty = true; // there may be more
    return events.length > 0;
  }

  private sleep(): Promise<void> {
    if (this.dirty || this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const { pollIntervalMs } = this.tuning;
      const timer =
        pollIntervalMs === undefined
          ? undefined
          : setTimeout(() => {
              this.dirty = true; // another process may have written
              done();
            }, pollIntervalMs);
      const done = (): void => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      this.wake = done;
    });
  }
}

/**
 * One store's catch-up subscriptions: each reads through `reads` (the store) and is handed the
 * store's commits (notify); all of them end with the store (closeAll).
 */
export class CatchUpSubscriptions {
  private readonly listeners = new Set<(commit: CommitNotice) => void>();
  private readonly open = new Set<CatchUpSubscription>();
  private readonly source: SubscriptionSource;

  constructor(
    reads: Pick<SubscriptionSource, 'readAll' | 'headPosition'>,
    private readonly tuning: SubscriptionTuning,
  ) {
    this.source = {
      readAll: (options) => reads.readAll(options),
      headPosition: () => reads.headPosition(),
      onCommit: (listener) => {
        this.listeners.add(listener);
        return () => void this.listeners.delete(listener);
      },
    };
  }

  /** Whether any subscription would be handed a commit. */
  get listening(): boolean {
    return this.listeners.size > 0;
  }

  subscribe(options: SubscribeOptions): Subscription {
    const subscription = new CatchUpSubscription(this.source, options, this.tuning, (s) =>
      this.open.delete(s),
    );
    this.open.add(subscription);
    return subscription;
  }

  notify(commit: CommitNotice): void {
    for (const listener of this.listeners) listener(commit);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.open].map((s) => s.close()));
  }
}
