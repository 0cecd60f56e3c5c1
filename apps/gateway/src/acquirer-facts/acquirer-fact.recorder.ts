import {
  decideAcquirerFact,
  orderStreamId,
  type AcquirerFact,
  type OrderEvent,
  type OrderRejection,
  type OrderState,
} from '@gateway/domain';
import { WrongExpectedRevisionError } from '@gateway/event-store';
import type { KeyedMutex } from '../order/keyed-mutex';
import type { OrderRepository } from '../order/order.repository';

/** How often a fact is re-decided when another writer got to the order's stream first. */
const CONFLICT_RETRIES = 5;

export type RecordedFact =
  | {
      readonly kind: 'recorded';
      readonly events: readonly OrderEvent[];
      readonly state: OrderState;
    }
  | { readonly kind: 'already-recorded'; readonly state: OrderState }
  | { readonly kind: 'refused'; readonly rejection: OrderRejection; readonly state: OrderState }
  | { readonly kind: 'no-order' };

/**
 * The acquirer's side of the write path: load → decide → append, re-deciding on a conflict. It
 * takes the order's lock like a merchant's request, so the two never interleave in this process;
 * other processes and nodes are kept out by the append's expected revision.
 */
export class AcquirerFactRecorder {
  constructor(
    private readonly orders: OrderRepository,
    private readonly locks: KeyedMutex,
  ) {}

  record(fact: AcquirerFact): Promise<RecordedFact> {
    const streamId = orderStreamId(fact.merchantId, fact.orderId);
    return this.locks.run(streamId, () => this.decideAndAppend(streamId, fact));
  }

  private async decideAndAppend(streamId: string, fact: AcquirerFact): Promise<RecordedFact> {
    for (let attempt = 0; ; attempt++) {
      const loaded = await this.orders.load(streamId);
      if (loaded.state.kind === 'NoOrder') return { kind: 'no-order' };
      const decision = decideAcquirerFact(fact, loaded.state);
      if (decision.kind === 'already-recorded')
        return { kind: 'already-recorded', state: loaded.state };
      if (decision.kind === 'refused')
        return { kind: 'refused', rejection: decision.rejection, state: loaded.state };
      try {
        const saved = await this.orders.append(streamId, loaded, decision.events, {
          merchantId: fact.merchantId,
          causedBy: 'acquirer',
          acquirerFact: fact.type,
          time: fact.now,
        });
        return { kind: 'recorded', events: decision.events, state: saved.state };
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError) || attempt === CONFLICT_RETRIES)
          throw error;
      }
    }
  }
}
