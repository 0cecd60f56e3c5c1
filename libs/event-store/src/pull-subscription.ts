import type { StoredEvent, Subscription } from './event-store.port';

export const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

/**
 * The async-iterator half every adapter's subscription shares: `next()` calls run one at a time
 * (a consumer that does not await still gets events in order), and leaving a `for await` loop
 * early closes the subscription. Adapters supply how to pull one event and how to close.
 */
export abstract class PullSubscription implements Subscription, AsyncIterator<StoredEvent> {
  private chain: Promise<unknown> = Promise.resolve();

  [Symbol.asyncIterator](): AsyncIterator<StoredEvent> {
    return this;
  }

  next(): Promise<IteratorResult<StoredEvent>> {
    const result = this.chain.then(() => this.pull());
    this.chain = result.catch(() => undefined);
    return result;
  }

  /** Called by `for await` on break/throw. */
  async return(): Promise<IteratorResult<StoredEvent>> {
    await this.close();
    return DONE;
  }

  abstract close(): Promise<void>;

  protected abstract pull(): Promise<IteratorResult<StoredEvent>>;
}
