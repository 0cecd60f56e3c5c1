import type { AcquirerFact } from './acquirer-facts.commands';
import type { OrderEvent } from './order.events';
import type { OrderRejection } from './order.rejection';
import type { OrderState } from './order.state';

/**
 * What recording an acquirer's fact comes to. Idempotency is a result of its own: a fact the
 * order already holds (the same inquiry attempt, dispute, chargeback or settlement) records
 * nothing, so a janitor or settlement run killed halfway and run again records each fact once.
 */
export type AcquirerFactDecision =
  | { readonly kind: 'record'; readonly events: readonly OrderEvent[] }
  | { readonly kind: 'already-recorded' }
  | { readonly kind: 'refused'; readonly rejection: OrderRejection };

/** decide for the acquirer's facts: pure, like decide; the time and ids arrive in the fact. */
export function decideAcquirerFact(fact: AcquirerFact, state: OrderState): AcquirerFactDecision {
  throw new Error(`TODO(issue 18): decide ${fact.type} on ${state.kind}`);
}
