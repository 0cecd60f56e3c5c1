import {
  evolve,
  initialState,
  ORDER_STREAM_PREFIX,
  type OrderEvent,
  type OrderState,
} from '@gateway/domain';
import type { EventReader, StoredEvent } from '@gateway/event-store';
import { summarize, type OrderSummary } from './order-summary';

interface Folded {
  state: OrderState;
  /** Revision of the stream's last event folded into `state`. */
  revision: number;
}

/** The stream prefix the projection subscribes to. */
export const ORDER_SUMMARY_STREAMS = ORDER_STREAM_PREFIX;

/**
 * Folds order events into summary rows with the domain's own `evolve`, so a row always shows what
 * GET order would. The states of recently seen orders stay in a bounded cache (memory does not
 * grow with the log); an order that fell out of it is folded again from its stream. An event at
 * or below the revision already folded is skipped, so applying twice changes nothing.
 */
export class OrderSummaryProjection {
  private readonly cache = new Map<string, Folded>();

  constructor(
    private readonly events: Pick<EventReader, 'readStream'>,
    private readonly cacheSize = 2_000,
  ) {}

  /** The rows the events change, one per order (its state after the last of them). */
  async project(batch: readonly StoredEvent[]): Promise<OrderSummary[]> {
    const changed = new Map<string, Folded>();
    for (const event of batch) {
      if (!event.streamId.startsWith(ORDER_SUMMARY_STREAMS)) continue;
      let folded = this.cache.get(event.streamId);
      if (folded && event.revision <= folded.revision) continue;
      if (!folded || event.revision !== folded.revision + 1)
        folded =
          event.revision === 0
            ? { state: initialState(), revision: -1 } // a new order: nothing to read
            : await this.foldStream(event.streamId, event.revision);
      folded.state = evolve(folded.state, event as unknown as OrderEvent);
      folded.revision = event.revision;
      this.remember(event.streamId, folded);
      changed.set(event.streamId, folded);
    }
    const rows: OrderSummary[] = [];
    for (const { state, revision } of changed.values())
      if (state.kind === 'Order') rows.push(summarize(state, revision));
    return rows;
  }

  /** Forgets every cached state (another process moved the read model on). */
  reset(): void {
    this.cache.clear();
  }

  private async foldStream(streamId: string, before: number): Promise<Folded> {
    let state = initialState();
    let revision = -1;
    for (const event of await this.events.readStream(streamId)) {
      if (event.revision >= before) break;
      state = evolve(state, event as unknown as OrderEvent);
      revision = event.revision;
    }
    return { state, revision };
  }

  private remember(streamId: string, folded: Folded): void {
    this.cache.delete(streamId); // re-inserting moves it to the young end
    this.cache.set(streamId, folded);
    if (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value!);
  }
}

/** An order's summary folded from its events alone (no cache, no store). */
export function summaryOf(events: readonly StoredEvent[]): OrderSummary | undefined {
  let state = initialState();
  for (const event of events) state = evolve(state, event as unknown as OrderEvent);
  const last = events.at(-1);
  return state.kind === 'Order' && last ? summarize(state, last.revision) : undefined;
}
