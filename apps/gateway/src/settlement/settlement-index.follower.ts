import { ORDER_STREAM_PREFIX } from '@gateway/domain';
import type { EventStore, Subscription } from '@gateway/event-store';
import { batches } from '../relay/order-event.relay';
import type { SettlementIndex } from './settlement-index';

/** Events indexed per SQLite transaction at most. */
const BATCH = 500;
/** Wait after a failure before following again. */
const RETRY_MS = 1000;

/**
 * Keeps the settlement index up to date on the consumers thread: follows the order events from
 * the index's checkpoint as they commit, so the request thread's catch-up before a close has
 * next to nothing left to read. A failure is reported and followed again from the checkpoint.
 */
export class SettlementIndexFollower {
  private stopping = false;
  private running?: Promise<void>;
  private subscription?: Subscription;

  constructor(
    private readonly store: Pick<EventStore, 'subscribe'>,
    private readonly index: Pick<SettlementIndex, 'checkpoint' | 'apply'>,
    private readonly onError: (error: Error) => void,
  ) {}

  start(): void {
    this.running ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.subscription?.close();
    await this.running;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      try {
        const after = this.index.checkpoint();
        this.subscription = this.store.subscribe({
          ...(after !== undefined ? { after } : {}),
          streamPrefix: ORDER_STREAM_PREFIX,
        });
        for await (const events of batches(this.subscription, BATCH)) this.index.apply(events);
      } catch (error) {
        if (this.stopping) return;
        this.onError(error as Error);
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS).unref());
      }
    }
  }
}
