import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventStore, GlobalPosition, StoredEvent, Subscription } from '@gateway/event-store';
import type {
  DeliveryDetail,
  DeliveryPage,
  DeliveryQuery,
  DeliveryReader,
  DeliverySummary,
} from '../delivery/delivery.types';
import { SqliteDeliveryStore } from '../delivery/sqlite-delivery.store';
import { applyToStore, DELIVERY_STREAM_PREFIX } from './partition-events';

/** Applied events whose SQLite writes may be queued before the fold waits for them. */
const MAX_QUEUED_WRITES = 512;

export interface EventStoreDeliveryReaderOptions {
  /** Close the event store too (a process that opened one for this alone: the CLI, the console). */
  readonly ownsStore?: boolean;
  /** Called with each event folded, before it is applied (the read model keeps each delivery's stream). */
  readonly onEvent?: (event: StoredEvent) => void;
}

/**
 * The delivery log of every partition schedule, read-only: the schedule streams folded, as they
 * are appended, into a local SQLite file (a temporary one, rebuilt from the store on every
 * start). It only reads the event store (the console; the gateway's DeliveryReadModel adds the
 * redelivery requests on top). Reads answer from the fold as far as it got: `caughtUp` waits
 * for what was committed before, and a fold that stopped on an error is `failure`.
 */
export class EventStoreDeliveryReader implements DeliveryReader {
  private readonly directory = mkdtempSync(join(tmpdir(), 'webhook-deliveries-'));
  private readonly log = new SqliteDeliveryStore(join(this.directory, 'deliveries.db'), {
    cache: true,
  });
  private readonly subscription: Subscription;
  private readonly folding: Promise<void>;
  private applied: GlobalPosition = -1n;
  /** The last write of the fold to the local file (the applied position's, or a later one's). */
  private lastWrite: Promise<unknown> = Promise.resolve();
  private waiters: Array<{ position: GlobalPosition; done: () => void }> = [];
  private stopped: Error | undefined;

  constructor(
    private readonly store: EventStore,
    private readonly options: EventStoreDeliveryReaderOptions = {},
  ) {
    this.subscription = store.subscribe({ streamPrefix: DELIVERY_STREAM_PREFIX });
    this.folding = this.fold().catch((error: unknown) => this.stop(error));
  }

  /** Why the fold stopped (an event it could not apply): its reads are stale from there. */
  get failure(): Error | undefined {
    return this.stopped;
  }

  list(query: DeliveryQuery): DeliveryPage {
    return this.log.list(query);
  }

  get(id: string, merchantId?: string): DeliveryDetail | undefined {
    return this.log.get(id, merchantId);
  }

  ofOrder(streamId: string): DeliverySummary[] {
    return this.log.ofOrder(streamId);
  }

  /** Pending deliveries of every partition, as far as the fold got (metrics). */
  pendingCount(): number {
    return this.log.pendingCount();
  }

  /**
   * Resolves once the fold has applied every schedule event committed before the call. Bounded
   * by the store's head at the call, so schedules appended to all the time do not keep it waiting.
   */
  async caughtUp(): Promise<void> {
    const head = await this.store.headPosition();
    for (;;) {
      if (this.stopped) throw this.stopped;
      const after = this.applied < 0n ? undefined : this.applied;
      const [ahead] = await this.store.readAll({
        ...(after !== undefined ? { after } : {}),
        streamPrefix: DELIVERY_STREAM_PREFIX,
        maxCount: 1,
      });
      if (!ahead || head === undefined || ahead.position > head) break;
      await this.applying(ahead.position);
    }
    await this.lastWrite;
    if (this.stopped) throw this.stopped;
  }

  /** Resolves once the fold has applied the event at `position` (one this process appended). */
  async applying(position: GlobalPosition): Promise<void> {
    if (position > this.applied)
      await new Promise<void>((done) => this.waiters.push({ position, done }));
    else await this.lastWrite;
  }

  async close(): Promise<void> {
    await this.subscription.close();
    await this.folding;
    await this.log.close();
    rmSync(this.directory, { recursive: true, force: true });
    if (this.options.ownsStore) await this.store.close();
  }

  private async fold(): Promise<void> {
    let queued: Array<Promise<unknown> | undefined> = [];
    for await (const event of this.subscription) {
      this.options.onEvent?.(event);
      const write = applyToStore(this.log, event);
      if (write) {
        // A write the local file refused stops the reads being right: known at once, not when awaited.
        write.catch((error: unknown) => this.stop(error));
        queued.push((this.lastWrite = write));
      }
      if (queued.length >= MAX_QUEUED_WRITES || this.waiters.length) {
        await Promise.all(queued);
        queued = [];
      }
      this.applied = event.position;
      this.wake();
    }
  }

  /** Stops the reads being trusted; whoever waits on the fold is let go (and sees `failure`). */
  private stop(error: unknown): void {
    this.stopped ??= error instanceof Error ? error : new Error(String(error));
    this.waiters.splice(0).forEach((waiter) => waiter.done());
  }

  private wake(): void {
    const ready = this.waiters.filter((waiter) => waiter.position <= this.applied);
    if (ready.length === 0) return;
    this.waiters = this.waiters.filter((waiter) => waiter.position > this.applied);
    ready.forEach((waiter) => waiter.done());
  }
}
