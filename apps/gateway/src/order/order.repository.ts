import { evolve, initialState, type OrderEvent, type OrderState } from '@gateway/domain';
import type { EventMetadata, EventStore, ExpectedRevision } from '@gateway/event-store';
import { randomUUID } from 'node:crypto';

export interface LoadedOrder {
  readonly state: OrderState;
  /** Revision of the stream's last event, or 'no_stream'. */
  readonly revision: ExpectedRevision;
}

/**
 * Loads an order by folding its stream, and appends new events with optimistic concurrency.
 * Recently used orders stay folded in memory (a bounded LRU) so a capture after an authorization
 * does not re-read the stream. The cache only ever holds states that were committed; a conflict
 * (another process wrote the stream) drops the entry, and the caller re-loads.
 */
export class OrderRepository {
  private readonly cache = new Map<string, LoadedOrder>();

  constructor(
    private readonly store: EventStore,
    private readonly maxCached = 10_000,
  ) {}

  async load(streamId: string): Promise<LoadedOrder> {
    const cached = this.cache.get(streamId);
    if (cached) {
      this.cache.delete(streamId);
      this.cache.set(streamId, cached);
      return cached;
    }
    const stored = await this.store.readStream(streamId);
    const state = stored.reduce((s, e) => evolve(s, e as unknown as OrderEvent), initialState());
    const loaded: LoadedOrder = {
      state,
      revision: stored.length ? stored[stored.length - 1].revision : 'no_stream',
    };
    this.remember(streamId, loaded);
    return loaded;
  }

  /** Appends the events; resolves once durable, with the order as it now stands. */
  async append(
    streamId: string,
    from: LoadedOrder,
    events: readonly OrderEvent[],
    metadata: EventMetadata,
  ): Promise<LoadedOrder> {
    try {
      const result = await this.store.appendToStream(
        streamId,
        events.map((e) => ({ eventId: randomUUID(), type: e.type, data: e.data, metadata })),
        from.revision,
      );
      const loaded: LoadedOrder = {
        state: events.reduce(evolve, from.state),
        revision: result.nextExpectedRevision,
      };
      this.remember(streamId, loaded);
      return loaded;
    } catch (error) {
      this.cache.delete(streamId);
      throw error;
    }
  }

  private remember(streamId: string, loaded: LoadedOrder): void {
    this.cache.delete(streamId);
    this.cache.set(streamId, loaded);
    if (this.cache.size > this.maxCached)
      this.cache.delete(this.cache.keys().next().value as string);
  }
}
