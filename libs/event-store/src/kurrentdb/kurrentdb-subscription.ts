import { DONE, PullSubscription } from '../pull-subscription';
import type { AllStreamSubscription, ResolvedEvent } from '@kurrent/kurrentdb-client';
import type { GlobalPosition, StoredEvent } from '../event-store.port';

export interface ResubscribeTuning {
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
}

/**
 * The port's subscription over KurrentDB's `subscribeToAll` (catch-up, then live, server-side).
 * The client's stream is pulled one event at a time, so a slow consumer applies back-pressure
 * through gRPC flow control. When the server drops the subscription (restart, network, leader
 * change), it resubscribes after the last event delivered, waiting with exponential backoff;
 * events at or before that cursor are skipped, so a resubscription yields no duplicate.
 */
export class KurrentDbSubscription extends PullSubscription {
  private current: AllStreamSubscription | undefined;
  private iterator: AsyncIterator<ResolvedEvent> | undefined;
  private closed = false;
  private readonly closing: Promise<typeof DONE>;
  private signalClosed!: () => void;
  private delayMs: number;

  constructor(
    private readonly open: (after: GlobalPosition | undefined) => AllStreamSubscription,
    private readonly convert: (event: ResolvedEvent) => StoredEvent,
    private cursor: GlobalPosition | undefined,
    private readonly tuning: ResubscribeTuning,
    private readonly onClosed: (subscription: KurrentDbSubscription) => void,
  ) {
    super();
    this.delayMs = tuning.initialDelayMs;
    this.closing = new Promise((resolve) => {
      this.signalClosed = () => resolve(DONE);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.signalClosed();
    this.onClosed(this);
    await this.drop();
  }

  protected async pull(): Promise<IteratorResult<StoredEvent>> {
    while (!this.closed) {
      let next: IteratorResult<ResolvedEvent>;
      try {
        next = await Promise.race([this.connected().next(), this.closing]);
        if (!next.done || this.closed) this.delayMs = this.tuning.initialDelayMs;
        else throw new Error('subscription ended by the server');
      } catch {
        if (this.closed) return DONE;
        // Dropped: forget this connection, wait, and resubscribe after the cursor.
        await this.drop();
        await Promise.race([sleep(this.delayMs), this.closing]);
        this.delayMs = Math.min(this.delayMs * 2, this.tuning.maxDelayMs);
        continue;
      }
      if (next.done) return DONE;
      // Conversion errors (a non-JSON event) are the caller's to see, not a reason to resubscribe.
      const event = this.convert(next.value);
      // After a resubscription the server may repeat the event at the cursor.
      if (this.cursor !== undefined && event.position <= this.cursor) continue;
      this.cursor = event.position;
      return { done: false, value: event };
    }
    return DONE;
  }

  private connected(): AsyncIterator<ResolvedEvent> {
    if (!this.iterator) {
      this.current = this.open(this.cursor);
      // Errors surface through the iterator; this listener only keeps them from being unhandled.
      this.current.on('error', () => undefined);
      this.iterator = this.current[Symbol.asyncIterator]();
    }
    return this.iterator;
  }

  private async drop(): Promise<void> {
    const current = this.current;
    this.current = undefined;
    this.iterator = undefined;
    if (current) await current.unsubscribe().catch(() => undefined);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
