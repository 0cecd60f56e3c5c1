import {
  evolveAll,
  FoldedOrderCache,
  initialState,
  rememberStateAfter,
  type OrderEvent,
  type OrderState,
} from '@gateway/domain';
import {
  newEventId,
  type AppendOptions,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
} from '@gateway/event-store';
import { performance } from 'node:perf_hooks';
import { OrderStreamsSeen } from './order-streams-seen';

export interface LoadedOrder {
  readonly state: OrderState;
  /** Revision of the stream's last event, or 'no_stream'. */
  readonly revision: ExpectedRevision;
}

const PLAIN_DATA: AppendOptions = { dataIsPlainJson: true };

const NO_ORDER: LoadedOrder = { state: initialState(), revision: 'no_stream' };

/**
 * Loads an order by folding its stream, and appends new events with optimistic concurrency.
 *
 * Every load asks the store, the only authority: another gateway process may have written the
 * stream since. But it asks only for the events after the revision this process last folded
 * (a bounded cache of folded orders), so a load costs what the new events cost, not what the
 * order's whole history does. The store checks on each read that the stream still reaches that
 * revision without a gap, so a cached fold can never hide a damaged stream.
 *
 * Opened with `open`, it also knows which order streams the store holds (OrderStreamsSeen), so
 * the write path takes an order the store does not hold as new without a read (`loadToWrite`).
 */
export class OrderRepository {
  private readonly cache: FoldedOrderCache;

  constructor(
    private readonly store: EventStore,
    /** Told how long each append took to become durable, in seconds (for metrics). */
    private readonly appended: (seconds: number) => void = () => undefined,
    /** Events folded into cached orders at most (0: no cache, every load reads the whole stream). */
    cachedEvents = 0,
    /** The order streams the store holds; without it every load reads. */
    private readonly seen?: OrderStreamsSeen,
  ) {
    this.cache = new FoldedOrderCache(cachedEvents);
  }

  /** A repository that knows the store's order streams, when the store can list them. */
  static async open(
    store: EventStore,
    appended?: (seconds: number) => void,
    cachedEvents?: number,
  ): Promise<OrderRepository> {
    const seen = await OrderStreamsSeen.open(store);
    return new OrderRepository(store, appended, cachedEvents, seen);
  }

  /** `load`, except that an order the store does not hold is new without a read. */
  async loadToWrite(streamId: string): Promise<LoadedOrder> {
    return (await this.seen?.isNew(streamId)) ? NO_ORDER : this.load(streamId);
  }

  async load(streamId: string): Promise<LoadedOrder> {
    const cached = this.cache.get(streamId);
    let stored;
    try {
      stored = await this.store.readStream(streamId, {
        fromRevision: cached ? cached.revision + 1 : 0,
      });
    } catch (error) {
      this.cache.forget(streamId);
      throw error;
    }
    if (stored.length === 0) return cached ?? NO_ORDER;
    const loaded = {
      state: evolveAll(cached?.state ?? initialState(), stored as unknown as OrderEvent[]),
      revision: stored[stored.length - 1].revision,
    };
    this.cache.remember(streamId, loaded);
    return loaded;
  }

  /** Appends the events; resolves once durable, with the order as it now stands. */
  async append(
    streamId: string,
    from: LoadedOrder,
    events: readonly OrderEvent[],
    metadata: EventMetadata,
  ): Promise<LoadedOrder> {
    this.seen?.appending(streamId);
    const started = performance.now();
    let result;
    try {
      result = await this.store.appendToStream(
        streamId,
        events.map((e) => ({ eventId: newEventId(), type: e.type, data: e.data, metadata })),
        from.revision,
        // The domain's events are plain, immutable data: committed events may share them.
        PLAIN_DATA,
      );
    } catch (error) {
      this.seen?.failed();
      throw error;
    }
    this.seen?.appended(result.position, events.length);
    this.appended((performance.now() - started) / 1000);
    // Durable, so as good as read back: the next load asks only for what others append after it.
    const loaded = { state: evolveAll(from.state, events), revision: result.nextExpectedRevision };
    this.cache.remember(streamId, loaded);
    // The consumers get these very event objects: they take this fold instead of redoing it.
    const last = result.events.at(-1);
    if (last) rememberStateAfter(last, loaded.state);
    return loaded;
  }

  /** Orders and events held folded, for metrics. */
  cached(): { readonly orders: number; readonly events: number } {
    return this.cache.size;
  }
}
