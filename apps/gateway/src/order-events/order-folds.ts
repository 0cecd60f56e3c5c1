import {
  evolve,
  initialState,
  rememberStateAfter,
  stateAfter,
  type OrderEvent,
  type OrderState,
} from '@gateway/domain';
import type { EventStore, StoredEvent } from '@gateway/event-store';
import { RecentMap } from './recent-map';

/** Orders whose recent states are kept: the relay and the live feeds work near the head. */
const ORDERS_KEPT = 1_000;
/** Consecutive states kept per order, so consumers a few events apart share them. */
const STATES_KEPT = 8;

type Order = Extract<OrderState, { kind: 'Order' }>;

/** The states after revisions first, first + 1, … of one order. */
interface Recent {
  first: number;
  readonly states: Order[];
}

/**
 * The order as each of its events left it, for building public events. The last event of an
 * append made by this process comes with the write path's fold (stateAfter); an order's next event
 * costs one evolve from the state kept for the event before; anything else (an order not seen
 * lately, a consumer far behind) reads the order's stream and folds it up to the event. Bounded:
 * the orders least recently asked about are forgotten first.
 */
export class OrderFolds {
  private readonly recent = new RecentMap<string, Recent>(ORDERS_KEPT);

  constructor(private readonly store: Pick<EventStore, 'readStream'>) {}

  async after(event: StoredEvent): Promise<Order> {
    const kept = this.recent.get(event.streamId);
    const offset = kept ? event.revision - kept.first : -1;
    const folded = stateAfter(event);
    let state: Order;
    if (folded?.kind === 'Order')
      state = folded; // the write path's fold (committed-folds.ts)
    else if (kept && offset >= 0 && offset < kept.states.length) state = kept.states[offset];
    else if (kept && offset === kept.states.length) state = fold(kept.states[offset - 1], [event]);
    else if (event.revision === 0) state = fold(initialState(), [event]);
    else {
      const upTo = (await this.store.readStream(event.streamId)).slice(0, event.revision + 1);
      if (upTo.at(-1)?.eventId !== event.eventId)
        throw new Error(`${event.streamId} read back without event ${event.eventId}`);
      state = fold(initialState(), upTo);
    }
    this.keep(event.streamId, event.revision, state);
    // For the other consumers handed this very event object (the projector on the consumers thread).
    if (folded !== state) rememberStateAfter(event, state);
    return state;
  }

  private keep(streamId: string, revision: number, state: Order): void {
    const kept = this.recent.get(streamId);
    const end = kept ? kept.first + kept.states.length : 0;
    if (!kept || revision > end) {
      this.recent.set(streamId, { first: revision, states: [state] });
      return;
    }
    if (revision === end && kept.states.push(state) > STATES_KEPT) {
      kept.states.shift();
      kept.first++;
    }
    this.recent.set(streamId, kept);
  }
}

function fold(from: OrderState, events: readonly StoredEvent[]): Order {
  const state = events.reduce((s, e) => evolve(s, e as unknown as OrderEvent), from);
  if (state.kind !== 'Order') throw new Error(`${events[0].streamId} holds no order`);
  return state;
}
