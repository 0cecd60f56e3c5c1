import { DONE, PullSubscription } from './pull-subscription';
import type {
  GlobalPosition,
  ReadAllOptions,
  StoredEvent,
  SubscribeOptions,
} from './event-store.port';

/** What a subscription needs from its store. */
export interface SubscriptionSource {
  readAll(options: ReadAllOptions): Promise<StoredEvent[]>;
  headPosition(): Promise<GlobalPosition | undefined>;
  /** Calls `listener` after each commit made through this store; returns the unregister function. */
  onCommit(listener: () => void): () => void;
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
 */
export class CatchUpSubscription extends PullSubscription {
  private cursor: GlobalPosition | undefined;
  private readonly prefix: string | undefined;
  private buffer: StoredEvent[] = [];
  private closed = false;
  /** Set by every commit notification so one arriving mid-read is not lost before sleep(). */
  private dirty = true;
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
    this.unregister = source.onCommit(() => {
      this.dirty = true;
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
        if (!(await this.fill())) await this.sleep();
      } catch (error) {
        // The store closed mid-read (it closes its subscriptions first): end, don't throw.
        if (this.closed) return DONE;
        throw error;
      }
    }
  }

  private async fill(): Promise<boolean> {
    this.dirty = false;
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
    return events.length > 0;
  }

  private sleep(): Promise<void> {
    if (this.dirty || this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const { pollIntervalMs } = this.tuning;
      const timer =
        pollIntervalMs === undefined ? undefined : setTimeout(() => done(), pollIntervalMs);
      const done = (): void => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      this.wake = done;
    });
  }
}
