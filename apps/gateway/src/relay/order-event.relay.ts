import { ORDER_STREAM_PREFIX } from '@gateway/domain';
import type { EventStore, GlobalPosition, StoredEvent, Subscription } from '@gateway/event-store';
import {
  backoffDelay,
  DEFAULT_BACKOFF,
  sleep,
  type Backoff,
  type OrderEventPublisher,
  type PublicOrderEvent,
} from '@gateway/order-events';
import type { RelayCheckpointStore } from './relay-checkpoint.store';

export interface RelayLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface OrderEventRelayOptions {
  /** Most events handed to the bus in one publish (default 250). */
  readonly batchSize?: number;
  /** Wait between failed publishes of the same batch. */
  readonly retry?: Backoff;
  /** How long stop() waits for a publish in flight before giving up on it (default 5000). */
  readonly stopTimeoutMs?: number;
}

/**
 * 'catching-up'/'live': publishing; 'retrying': the bus refused the last publish and the batch is
 * being retried; 'stopped'; 'standby': another node holds the relay's lease (LeasedRelay).
 */
export type RelayState = 'starting' | 'live' | 'retrying' | 'stopped' | 'standby';

export interface RelayStatus {
  readonly state: RelayState;
  readonly checkpoint: GlobalPosition | undefined;
  readonly eventsPublished: number;
  readonly publishFailures: number;
  /** When the current run of failures began (ISO time), while retrying. */
  readonly failingSince?: string;
  /** On a cluster (LeasedRelay): whether this node publishes, and the lease's term. */
  readonly role?: 'leader' | 'standby';
  readonly term?: number;
}

/** The public events of a batch of stored ones, in the same order (PublicOrderEvents.forBus). */
export type ToPublicEvents = (batch: readonly StoredEvent[]) => Promise<PublicOrderEvent[]>;

/**
 * Publishes every order event to the bus: a subscription to the event store from the checkpoint,
 * read in batches (as many as are already committed, up to batchSize), each turned into public
 * events once, published and only then checkpointed. A refused publish is retried with back-off, the same batch again, forever:
 * nothing is skipped and nothing is thrown at the API. After a crash the batch in flight is
 * published again (at-least-once; consumers de-duplicate by eventId).
 */
export class OrderEventRelay {
  private readonly stopping = new AbortController();
  private subscription: Subscription | undefined;
  private running: Promise<void> | undefined;
  private state: RelayState = 'starting';
  private checkpoint: GlobalPosition | undefined;
  private eventsPublished = 0;
  private publishFailures = 0;
  private failingSince: Date | undefined;

  constructor(
    private readonly store: Pick<EventStore, 'subscribe'>,
    private readonly toPublic: ToPublicEvents,
    private readonly publisher: OrderEventPublisher,
    private readonly checkpoints: RelayCheckpointStore,
    private readonly log: RelayLog,
    private readonly options: OrderEventRelayOptions = {},
  ) {}

  start(): void {
    this.running ??= this.run();
  }

  status(): RelayStatus {
    return {
      state: this.state,
      checkpoint: this.checkpoint,
      eventsPublished: this.eventsPublished,
      publishFailures: this.publishFailures,
      ...(this.failingSince ? { failingSince: this.failingSince.toISOString() } : {}),
    };
  }

  /** Stops reading; a publish in flight gets stopTimeoutMs to be acknowledged and checkpointed. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.subscription?.close();
    const gaveUp = new AbortController();
    await Promise.race([this.running, sleep(this.options.stopTimeoutMs ?? 5000, gaveUp.signal)]);
    gaveUp.abort();
    this.state = 'stopped';
  }

  private async run(): Promise<void> {
    for (let attempt = 1; !this.stopping.signal.aborted; attempt++) {
      try {
        await this.relayFrom(this.checkpoints.load());
      } catch (error) {
        // The store failed under the subscription: resubscribe from the checkpoint.
        this.log.warn({ err: describe(error) }, 'relay subscription failed; resubscribing');
        await sleep(backoffDelay(attempt, this.retry), this.stopping.signal);
      }
    }
  }

  private async relayFrom(after: GlobalPosition | undefined): Promise<void> {
    this.checkpoint = after;
    const subscription = this.store.subscribe({ after, streamPrefix: ORDER_STREAM_PREFIX });
    this.subscription = subscription;
    if (this.stopping.signal.aborted) await subscription.close();
    this.state = 'live';
    try {
      for await (const batch of batches(subscription, this.options.batchSize ?? 250)) {
        if (!(await this.publishUntilAcknowledged(batch))) return;
        const position = batch[batch.length - 1].position;
        this.checkpoints.save(position);
        this.checkpoint = position;
        this.eventsPublished += batch.length;
      }
    } finally {
      await subscription.close();
    }
  }

  /**
   * False when stopped before the bus acknowledged. A batch that cannot be built (its orders'
   * streams unreadable) throws: the relay resubscribes from the checkpoint.
   */
  private async publishUntilAcknowledged(batch: readonly StoredEvent[]): Promise<boolean> {
    const events = await this.toPublic(batch);
    for (let attempt = 1; ; attempt++) {
      try {
        await this.publisher.publish(events);
        if (this.failingSince) {
          this.log.info({ failures: attempt - 1 }, 'relay publishing again');
          this.failingSince = undefined;
        }
        this.state = 'live';
        return true;
      } catch (error) {
        if (this.stopping.signal.aborted) return false;
        this.publishFailures++;
        this.failingSince ??= new Date();
        this.state = 'retrying';
        const delay = backoffDelay(attempt, this.retry);
        this.log.warn(
          { err: describe(error), attempt, retryInMs: delay, from: batch[0].position.toString() },
          'relay publish failed; retrying the batch',
        );
        await sleep(delay, this.stopping.signal);
        if (this.stopping.signal.aborted) return false;
      }
    }
  }

  private get retry(): Backoff {
    return this.options.retry ?? DEFAULT_BACKOFF;
  }
}

const NOTHING_YET = Symbol('nothing yet');

/**
 * Groups a subscription's events into batches of what is already available: the first event of a
 * batch is awaited, the rest are taken while the next one arrives before a macrotask turn (the
 * store's catch-up reads resolve within microtasks), up to `size`.
 */
export async function* batches(
  subscription: Subscription,
  size: number,
): AsyncGenerator<StoredEvent[]> {
  const events = subscription[Symbol.asyncIterator]();
  const pull = () => {
    const result = events.next();
    // Left pending when the consumer stops early: its failure must not go unhandled.
    result.catch(() => undefined);
    return result;
  };
  const beforeTurn = untilTurn();
  let next = pull();
  for (;;) {
    const first = await next;
    if (first.done) return;
    const batch = [first.value];
    next = pull();
    while (batch.length < size) {
      const ready = await beforeTurn(next);
      if (ready === NOTHING_YET) break;
      if (ready.done) {
        yield batch;
        return;
      }
      batch.push(ready.value);
      next = pull();
    }
    yield batch;
  }
}

/**
 * Waits for a promise, or answers NOTHING_YET if the event loop turns first. One setImmediate per
 * turn, shared by every wait in it, and only the current wait is kept for it: a catch-up that
 * never lets the loop turn leaves one Immediate waiting, not one per event.
 */
function untilTurn(): <T>(promise: Promise<T>) => Promise<T | typeof NOTHING_YET> {
  let turnEnded: (() => void) | undefined;
  let scheduled = false;
  const endTurn = () => {
    scheduled = false;
    turnEnded?.();
    turnEnded = undefined;
  };
  return (promise) =>
    new Promise((resolve, reject) => {
      promise.then(resolve, reject);
      turnEnded = () => resolve(NOTHING_YET);
      if (!scheduled) {
        scheduled = true;
        setImmediate(endTurn);
      }
    });
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
