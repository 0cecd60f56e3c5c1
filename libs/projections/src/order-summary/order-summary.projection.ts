import {
  evolveAll,
  initialState,
  ORDER_STREAM_PREFIX,
  rememberStateAfter,
  stateAfter,
  type OrderEvent,
  type OrderState,
} from '@gateway/domain';
import type { EventData, EventDataReader } from '@gateway/event-store';
import { summarize, type OrderSummary } from './order-summary';

interface Folded {
  state: OrderState;
  /** Revision of the stream's last event folded into `state`. */
  revision: number;
}

/** An order of a batch: its state so far, and its events of the batch not folded into it yet. */
interface Pending extends Folded {
  events: OrderEvent[];
  /** Whether the batch moved it past the revision it had before. */
  changed: boolean;
}

/** The stream prefix the projection subscribes to. */
export const ORDER_SUMMARY_STREAMS = ORDER_STREAM_PREFIX;

/**
 * Folds order events into summary rows with the domain's own `evolve`, so a row always shows what
 * GET order would. The states of recently seen orders stay in a bounded cache (memory does not
 * grow with the log); an order that fell out of it is folded again from its stream. An event at
 * or below the revision already folded is skipped, so applying twice changes nothing. An event
 * this process appended comes with the order its write path folded (stateAfter): none is redone.
 */
export class OrderSummaryProjection {
  private readonly cache = new Map<string, Folded>();

  constructor(
    private readonly events: Pick<EventDataReader, 'readStream'>,
    private readonly cacheSize = 2_000,
  ) {}

  /** The rows the events change, one per order (its state after the last of them). */
  async project(batch: readonly EventData[]): Promise<OrderSummary[]> {
    // Each order's new events are folded in one go (evolveAll): no state between them.
    const pending = new Map<string, Pending>();
    for (const event of batch) {
      if (!event.streamId.startsWith(ORDER_SUMMARY_STREAMS)) continue;
      let order = pending.get(event.streamId);
      if (!order) {
        const cached = this.cache.get(event.streamId);
        order = {
          state: cached?.state ?? initialState(),
          revision: cached?.revision ?? -1,
          events: [],
          changed: false,
        };
        if (!cached && event.revision > 0) order.revision = -2; // unknown: read below
        pending.set(event.streamId, order);
      }
      if (event.revision <= order.revision) continue;
      order.changed = true;
      const folded = stateAfter(event);
      if (folded) {
        // This process's write path folded the order up to this event (committed-folds.ts).
        order.state = folded;
        order.revision = event.revision;
        order.events = [];
        continue;
      }
      if (event.revision !== order.revision + 1) {
        // An order that fell out of the cache (or a gap): fold it again from its stream.
        const folded = await this.foldStream(event.streamId, event.revision);
        Object.assign(order, folded, { events: [] });
      }
      order.events.push(event as unknown as OrderEvent);
      order.revision = event.revision;
    }
    const rows: OrderSummary[] = [];
    for (const [streamId, order] of pending) {
      if (!order.changed) continue;
      const folded = { state: order.state, revision: order.revision };
      if (order.events.length > 0) {
        folded.state = evolveAll(order.state, order.events);
        // For the other consumers handed this very event object (the relay, on the same thread).
        rememberStateAfter(order.events[order.events.length - 1], folded.state);
      }
      this.remember(streamId, folded);
      if (folded.state.kind === 'Order') rows.push(summarize(folded.state, folded.revision));
    }
    return rows;
  }

  /** Forgets every cached state (another process moved the read model on). */
  reset(): void {
    this.cache.clear();
  }

  private async foldStream(streamId: string, before: number): Promise<Folded> {
    const events = (await this.events.readStream(streamId)).filter((e) => e.revision < before);
    return {
      state: evolveAll(initialState(), events as unknown as OrderEvent[]),
      revision: events.at(-1)?.revision ?? -1,
    };
  }

  private remember(streamId: string, folded: Folded): void {
    this.cache.delete(streamId); // re-inserting moves it to the young end
    this.cache.set(streamId, folded);
    if (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value!);
  }
}

/** An order's summary folded from its events alone (no cache, no store). */
export function summaryOf(events: readonly EventData[]): OrderSummary | undefined {
  const state = evolveAll(initialState(), events as unknown as OrderEvent[]);
  const last = events.at(-1);
  return state.kind === 'Order' && last ? summarize(state, last.revision) : undefined;
}
