import { evolve, initialState, type OrderEvent, type OrderState } from '@gateway/domain';
import type { EventMetadata, EventStore, ExpectedRevision } from '@gateway/event-store';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';

export interface LoadedOrder {
  readonly state: OrderState;
  /** Revision of the stream's last event, or 'no_stream'. */
  readonly revision: ExpectedRevision;
}

/**
 * Loads an order by folding its stream, and appends new events with optimistic concurrency.
 *
 * Every load reads the stream: the store is the only authority, because another gateway process
 * may have written it since (a cache here served stale orders and refused valid requests on old
 * state). An order's stream is short, so the read costs about what checking its head would.
 */
export class OrderRepository {
  constructor(
    private readonly store: EventStore,
    /** Told how long each append took to become durable, in seconds (for metrics). */
    private readonly appended: (seconds: number) => void = () => undefined,
  ) {}

  async load(streamId: string): Promise<LoadedOrder> {
    const stored = await this.store.readStream(streamId);
    return {
      state: stored.reduce((s, e) => evolve(s, e as unknown as OrderEvent), initialState()),
      revision: stored.length ? stored[stored.length - 1].revision : 'no_stream',
    };
  }

  /** Appends the events; resolves once durable, with the order as it now stands. */
  async append(
    streamId: string,
    from: LoadedOrder,
    events: readonly OrderEvent[],
    metadata: EventMetadata,
  ): Promise<LoadedOrder> {
    const started = performance.now();
    const result = await this.store.appendToStream(
      streamId,
      events.map((e) => ({ eventId: randomUUID(), type: e.type, data: e.data, metadata })),
      from.revision,
    );
    this.appended((performance.now() - started) / 1000);
    return { state: events.reduce(evolve, from.state), revision: result.nextExpectedRevision };
  }
}
